package io.hasp.lock.rw;

import io.hasp.client.Await;
import io.hasp.client.RedisCommands;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockArguments;
import io.hasp.lock.LockService;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * One mode, read or write, of a {@link HaspReadWriteLock}, with the reentrant lock's API: blocking,
 * interruptible and timed acquisition, async twins with an explicit {@link LockOwner}, and queries.
 *
 * <p>Leases: with a lease time the hold expires after it and is never renewed; without one (or
 * -1) the client's watchdog ({@code HaspConfig.watchdogLease}, 30 s by default) renews it every
 * third of the lease until it is unlocked. The blocking methods wait on the async ones; waiting
 * asynchronously costs no thread. Futures complete on event-loop or timer threads.
 *
 * <p>Errors: bad arguments throw {@link IllegalArgumentException} and send nothing; an unlock by a
 * non-holder throws {@link IllegalMonitorStateException}; asking for the write lock while holding
 * the read lock throws {@link LockUpgradeException}; Redis failures surface as
 * {@link io.hasp.client.RedisException} subtypes; a blocking call on one of the client's own threads
 * (in a callback) throws {@link IllegalStateException} instead of waiting for itself. Thread-safe; {@code newCondition()} is not supported.
 */
public final class ModeLock implements Lock {

    private static final long NO_WAIT = -1;
    private static final long WATCHDOG = -1;

    private final LockService service;
    private final RedisCommands redis;
    private final String name;
    private final RwLockKind kind;
    private final LockMode mode;

    ModeLock(LockService service, RedisCommands redis, String name, RwLockKind kind) {
        this.service = service;
        this.redis = redis;
        this.name = name;
        this.kind = kind;
        this.mode = kind.mode();
    }

    /** The read/write lock's name: the Redis key of its hash. */
    public String getName() {
        return name;
    }

    /** Which mode this is. */
    public LockMode mode() {
        return mode;
    }

    /** The owner {@code holderId} of this client, for the async methods. */
    public LockOwner owner(long holderId) {
        return service.owner(holderId);
    }

    /** The owner that the blocking methods use on the calling thread. */
    public LockOwner currentOwner() {
        return service.currentOwner();
    }

    // ---------------------------------------------------------------- blocking acquisition

    /** Acquires with the watchdog lease, waiting as long as needed; interrupts are deferred. */
    @Override
    public void lock() {
        lockUninterruptibly(WATCHDOG);
    }

    /** Acquires for {@code leaseTime} (never renewed; -1: the watchdog), waiting as long as needed. */
    public void lock(long leaseTime, TimeUnit unit) {
        lockUninterruptibly(LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis()));
    }

    /** Acquires for {@code leaseTime} (never renewed), waiting as long as needed. */
    public void lock(Duration leaseTime) {
        lockUninterruptibly(LockArguments.leaseMillis(leaseTime, service.minLeaseMillis()));
    }

    /** Acquires with the watchdog lease, waiting until held or the thread is interrupted. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        LockOwner owner = currentOwner();
        await(service.tryAcquire(kind, name, owner, WATCHDOG, NO_WAIT), owner, true);
    }

    /** Like {@link #lockInterruptibly()} with a lease of {@code leaseTime} (-1: the watchdog). */
    public void lockInterruptibly(long leaseTime, TimeUnit unit) throws InterruptedException {
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        LockOwner owner = currentOwner();
        await(service.tryAcquire(kind, name, owner, lease, NO_WAIT), owner, true);
    }

    /** Acquires (watchdog lease) only if that is possible now; one round trip. */
    @Override
    public boolean tryLock() {
        LockOwner owner = currentOwner();
        return awaitUninterruptibly(service.tryAcquire(kind, name, owner, WATCHDOG, 0), owner);
    }

    /**
     * Acquires (watchdog lease) if possible within {@code time}.
     *
     * @return true when acquired, false when the time passed first (also when Redis is unreachable)
     * @throws InterruptedException when interrupted; a hold granted at that moment is given back
     */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(time, unit);
        LockOwner owner = currentOwner();
        return await(service.tryAcquire(kind, name, owner, WATCHDOG, wait), owner, true);
    }

    /** Like {@link #tryLock(long, TimeUnit)}. */
    public boolean tryLock(Duration waitTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        LockOwner owner = currentOwner();
        return await(service.tryAcquire(kind, name, owner, WATCHDOG, wait), owner, true);
    }

    /**
     * Acquires for {@code leaseTime} (-1: the watchdog) if possible within {@code waitTime}.
     *
     * @return true when acquired, false when the wait time passed first
     * @throws InterruptedException when interrupted; a hold granted at that moment is given back
     */
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime, unit);
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        LockOwner owner = currentOwner();
        return await(service.tryAcquire(kind, name, owner, lease, wait), owner, true);
    }

    /** Like {@link #tryLock(long, long, TimeUnit)} with durations. */
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        LockOwner owner = currentOwner();
        return await(service.tryAcquire(kind, name, owner, lease, wait), owner, true);
    }

    /**
     * Gives back one hold of the calling thread.
     *
     * @throws IllegalMonitorStateException when the calling thread does not hold this mode
     */
    @Override
    public void unlock() {
        HaspReadWriteLock.join(service.release(kind, name, currentOwner()));
    }

    /** Frees the lock if it is held in this mode, whoever holds it; true when it was. */
    public boolean forceUnlock() {
        return HaspReadWriteLock.join(forceUnlockAsync());
    }

    /** Whether anyone holds this mode: for the read mode also the read holds of a downgrading writer. */
    public boolean isLocked() {
        return HaspReadWriteLock.join(isLockedAsync());
    }

    /** Whether the calling thread holds this mode. */
    public boolean isHeldByCurrentThread() {
        return HaspReadWriteLock.join(isHeldByAsync(currentOwner()));
    }

    /** Whether {@code owner} holds this mode. */
    public boolean isHeldBy(LockOwner owner) {
        return HaspReadWriteLock.join(isHeldByAsync(owner));
    }

    /** The calling thread's hold count in this mode (0 when it holds none). */
    public int getHoldCount() {
        return HaspReadWriteLock.join(getHoldCountAsync(currentOwner()));
    }

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 when it has no expiry. */
    public long remainTimeToLive() {
        return HaspReadWriteLock.join(remainTimeToLiveAsync());
    }

    /** Not supported. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition: distributed conditions are not supported");
    }

    // ---------------------------------------------------------------- async

    /** Acquires for {@code owner} with the watchdog lease, waiting as long as needed. */
    public CompletableFuture<Void> lockAsync(LockOwner owner) {
        return lockAsync(WATCHDOG, TimeUnit.MILLISECONDS, owner);
    }

    /**
     * Acquires for {@code owner} for {@code leaseTime} (-1: the watchdog), waiting as long as needed.
     * Fails with {@link LockUpgradeException} for an upgrade. Cancelling the future gives back a
     * hold granted concurrently.
     */
    public CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit, LockOwner owner) {
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        LockArguments.notNull("owner", owner);
        CompletableFuture<Boolean> acquiring = service.tryAcquire(kind, name, owner, lease, NO_WAIT);
        CompletableFuture<Void> result = acquiring.thenApply(acquired -> null);
        result.whenComplete((v, e) -> {
            if (result.isCancelled()) {
                acquiring.cancel(/* mayInterruptIfRunning= */ false);
            }
        });
        return result;
    }

    /** Like {@link #lockAsync(long, TimeUnit, LockOwner)} with a duration. */
    public CompletableFuture<Void> lockAsync(Duration leaseTime, LockOwner owner) {
        return lockAsync(LockArguments.leaseMillis(leaseTime, service.minLeaseMillis()), TimeUnit.MILLISECONDS, owner);
    }

    /** One attempt (watchdog lease): the future is true when {@code owner} holds this mode now. */
    public CompletableFuture<Boolean> tryLockAsync(LockOwner owner) {
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), WATCHDOG, 0);
    }

    /**
     * Acquires for {@code owner} for {@code leaseTime} (-1: the watchdog) if possible within
     * {@code waitTime}. The future completes with true (acquired) or false (the wait time passed,
     * also when Redis is unreachable), or fails with {@link LockUpgradeException} or a
     * non-retryable Redis error. Cancelling it gives back a hold granted concurrently.
     */
    public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime, unit);
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), lease, wait);
    }

    /** Like {@link #tryLockAsync(long, long, TimeUnit, LockOwner)} with durations. */
    public CompletableFuture<Boolean> tryLockAsync(Duration waitTime, Duration leaseTime, LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime);
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), lease, wait);
    }

    /** Like {@link #tryLockAsync(long, long, TimeUnit, LockOwner)} with the watchdog lease. */
    public CompletableFuture<Boolean> tryLockAsync(Duration waitTime, LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime);
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), WATCHDOG, wait);
    }

    /**
     * Gives back one hold of {@code owner}. Fails with {@link IllegalMonitorStateException} when the
     * owner does not hold this mode; a lost reply is retried with the same request id, so the real
     * owner never sees that exception because of a retry.
     */
    public CompletableFuture<Void> unlockAsync(LockOwner owner) {
        return service.release(kind, name, LockArguments.notNull("owner", owner));
    }

    /** Frees the lock if it is held in this mode, whoever holds it; the future is true when it was. */
    public CompletableFuture<Boolean> forceUnlockAsync() {
        return service.forceRelease(kind, name);
    }

    /** Whether anyone holds this mode (a snapshot of two reads). */
    public CompletableFuture<Boolean> isLockedAsync() {
        return redis.hget(name, "mode").thenCompose(current -> {
            if (mode == LockMode.WRITE || current == null || "read".equals(current)) {
                return CompletableFuture.completedFuture(
                        current != null && current.equals(mode == LockMode.WRITE ? "write" : "read"));
            }
            // Write mode: read holds exist beside 'mode' and the writer's field (a downgrade).
            return redis.hlen(name).thenApply(fields -> fields > 2);
        });
    }

    /** Whether {@code owner} holds this mode. */
    public CompletableFuture<Boolean> isHeldByAsync(LockOwner owner) {
        return redis.hexists(name, field(LockArguments.notNull("owner", owner)));
    }

    /** The hold count of {@code owner} in this mode (0 when it holds none). */
    public CompletableFuture<Integer> getHoldCountAsync(LockOwner owner) {
        return redis.hget(name, field(LockArguments.notNull("owner", owner)))
                .thenApply(count -> count == null ? 0 : Integer.parseInt(count));
    }

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 when it has no expiry. */
    public CompletableFuture<Long> remainTimeToLiveAsync() {
        return redis.pttl(name);
    }

    /**
     * Completes when {@code owner}'s current holds in this mode end, telling how ({@link HoldEnd#LOST}:
     * the owner no longer has the protection it thinks it has). Completes with
     * {@link HoldEnd#RELEASED} at once when this client tracks no such hold.
     */
    public CompletableFuture<HoldEnd> holdEnd(LockOwner owner) {
        return service.holdEnd(kind, name, LockArguments.notNull("owner", owner));
    }

    /** {@link #holdEnd(LockOwner)} for the calling thread's holds. */
    public CompletableFuture<HoldEnd> holdEnd() {
        return holdEnd(currentOwner());
    }

    /** The lock's name, mode and client. */
    @Override
    public String toString() {
        return "ModeLock[" + name + ", " + mode + ", client " + service.clientId() + "]";
    }

    private String field(LockOwner owner) {
        return kind.holdField(owner);
    }

    // ---------------------------------------------------------------- waiting on the async path

    private void lockUninterruptibly(long leaseMillis) {
        LockOwner owner = currentOwner();
        awaitUninterruptibly(service.tryAcquire(kind, name, owner, leaseMillis, NO_WAIT), owner);
    }

    private boolean awaitUninterruptibly(CompletableFuture<Boolean> acquiring, LockOwner owner) {
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return await(acquiring, owner, false);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean await(CompletableFuture<Boolean> acquiring, LockOwner owner, boolean interruptible)
            throws InterruptedException {
        if (!acquiring.isDone()) {
            blockingAllowed(acquiring, owner);
        }
        try {
            return acquiring.get();
        } catch (InterruptedException e) {
            if (interruptible) {
                abandon(acquiring, owner);
            }
            throw e;
        } catch (ExecutionException e) {
            throw HaspReadWriteLock.propagate(e.getCause());
        }
    }

    /** A blocking call on a client thread would wait for itself: fail fast, leaving nothing behind. */
    private void blockingAllowed(CompletableFuture<Boolean> acquiring, LockOwner owner) {
        try {
            Await.checkBlockingAllowed("a blocking read/write lock call");
        } catch (RuntimeException e) {
            abandon(acquiring, owner);
            throw e;
        }
    }

    private void abandon(CompletableFuture<Boolean> acquiring, LockOwner owner) {
        if (!acquiring.cancel(/* mayInterruptIfRunning= */ false)
                && !acquiring.isCompletedExceptionally() && Boolean.TRUE.equals(acquiring.getNow(false))) {
            service.release(kind, name, owner);
        }
    }
}
