package io.hasp.lock;

import io.hasp.RedisCommands;
import io.hasp.RedisException;
import io.hasp.internal.Await;
import io.hasp.internal.lock.LockArguments;
import io.hasp.internal.lock.LockFutures;
import io.hasp.internal.lock.LockKind;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.lock.ParkingFuture;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The {@link Lock} API of one lock of one {@link LockKind} on a {@link LockService}: blocking,
 * interruptible and timed acquisition, async twins with an explicit {@link LockOwner}, unlock,
 * queries and the hold's end. The base of {@link HaspLock} and of other lock modules' locks
 * (such as the read/write lock's modes), which add only their kind and what is special to it.
 *
 * <p>The blocking methods use the calling thread's owner ({@link #currentOwner()}) and wait on
 * the async ones: one algorithm. The async methods name their owner, because continuations run
 * on other threads; their futures complete on event-loop or timer threads, and waiting costs no
 * thread. Leases: with a lease time the hold expires after it; without one (or -1) the client's
 * watchdog renews it every third of {@code HaspConfig.watchdogLease} until it is released.
 *
 * <p>Waiting and fairness: a waiter wakes on its lock's unlock message or, at the latest, when the
 * holder's lease runs out. An unlock that ends its owner's last hold while another owner of the same
 * client waits for the lock (kinds that {@linkplain LockKind#handsOver() hand over}) gives the lock
 * straight to the longest-waiting one in the unlock script; after at most 16 such hand-overs in a
 * row the lock is freed for every client's waiters. There is no global queue: like Redisson's
 * lock, it is not fair across clients, but no client's waiters are starved by another's.
 *
 * <p>Errors: bad arguments throw {@link IllegalArgumentException} and send nothing; an unlock by a
 * non-holder throws {@link IllegalMonitorStateException}; Redis failures surface as
 * {@link RedisException} subtypes; a blocking call on one of the client's own threads throws
 * {@link IllegalStateException} instead of waiting for itself. Instances are cheap views and
 * thread-safe; {@code newCondition()} is not supported.
 */
public abstract class KindLock implements Lock {

    private static final long NO_WAIT = -1;
    private static final long WATCHDOG = -1;

    /** "a blocking HaspLock call", once per lock class: the blocking methods name themselves in errors. */
    private static final ClassValue<String> OPERATIONS = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return "a blocking " + type.getSimpleName() + " call";
        }
    };

    private final LockService service;
    private final LockKind kind;
    private final String name;

    /**
     * A lock of {@code kind} named {@code name} on {@code service}.
     *
     * @throws IllegalArgumentException when an argument is null or the name empty
     */
    protected KindLock(LockService service, LockKind kind, String name) {
        this.service = LockArguments.notNull("service", service);
        this.kind = LockArguments.notNull("kind", kind);
        this.name = LockArguments.name("name", name);
    }

    /** The lock's name: the Redis key of its hash. */
    public String getName() {
        return name;
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

    /** Acquires the lock with the watchdog lease, waiting as long as needed; interrupts are deferred. */
    @Override
    public void lock() {
        lockUninterruptibly(WATCHDOG);
    }

    /**
     * Acquires the lock for {@code leaseTime} (never renewed; -1: the watchdog), waiting as long as
     * needed; interrupts are deferred until the lock is held.
     */
    public void lock(long leaseTime, TimeUnit unit) {
        lockUninterruptibly(LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis()));
    }

    /** Acquires the lock for {@code leaseTime} (never renewed), waiting as long as needed. */
    public void lock(Duration leaseTime) {
        lockUninterruptibly(LockArguments.leaseMillis(leaseTime, service.minLeaseMillis()));
    }

    /** Acquires the lock with the watchdog lease, waiting until it is held or the thread is interrupted. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireBlocking(WATCHDOG, NO_WAIT);
    }

    /** Like {@link #lockInterruptibly()} with a lease of {@code leaseTime} (-1: the watchdog). */
    public void lockInterruptibly(long leaseTime, TimeUnit unit) throws InterruptedException {
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        acquireBlocking(lease, NO_WAIT);
    }

    /** Like {@link #lockInterruptibly()} with a lease of {@code leaseTime}. */
    public void lockInterruptibly(Duration leaseTime) throws InterruptedException {
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        acquireBlocking(lease, NO_WAIT);
    }

    /** Acquires the lock (watchdog lease) only if it is free now; one round trip. */
    @Override
    public boolean tryLock() {
        LockOwner owner = currentOwner();
        checkBlockingAllowed();
        return awaitUninterruptibly(service.tryAcquire(kind, name, owner, WATCHDOG, 0), owner);
    }

    /**
     * Acquires the lock (watchdog lease) if it becomes free within {@code time}.
     *
     * @return true when acquired, false when the time passed first (also when Redis is unreachable)
     * @throws InterruptedException when interrupted; a lock granted at that moment is given back
     */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(time, unit);
        return acquireBlocking(WATCHDOG, wait);
    }

    /** Like {@link #tryLock(long, TimeUnit)}. */
    public boolean tryLock(Duration waitTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        return acquireBlocking(WATCHDOG, wait);
    }

    /**
     * Acquires the lock for {@code leaseTime} (-1: the watchdog) if it becomes free within {@code waitTime}.
     *
     * @return true when acquired, false when the wait time passed first (also when Redis is unreachable)
     * @throws InterruptedException when interrupted; a lock granted at that moment is given back
     */
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime, unit);
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        return acquireBlocking(lease, wait);
    }

    /** Like {@link #tryLock(long, long, TimeUnit)} with durations. */
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        return acquireBlocking(lease, wait);
    }

    // ---------------------------------------------------------------- blocking release and queries

    /**
     * Gives back one hold of the calling thread; frees the lock when it was the last one.
     *
     * @throws IllegalMonitorStateException when the calling thread does not hold the lock
     */
    @Override
    public void unlock() {
        join(service.release(kind, name, currentOwner()));
    }

    /** Frees the lock whoever holds it (for a kind that is one mode of a lock: if held in that mode); true when it was. */
    public boolean forceUnlock() {
        return join(forceUnlockAsync());
    }

    /** Whether anyone (this client, another, or a Redisson client) holds the lock; see {@link #isLockedAsync()}. */
    public boolean isLocked() {
        return join(isLockedAsync());
    }

    /** Whether the calling thread holds the lock. */
    public boolean isHeldByCurrentThread() {
        return join(isHeldByAsync(currentOwner()));
    }

    /** Whether {@code owner} holds the lock. */
    public boolean isHeldBy(LockOwner owner) {
        return join(isHeldByAsync(owner));
    }

    /** The calling thread's hold count (0 when it does not hold the lock). */
    public int getHoldCount() {
        return join(getHoldCountAsync(currentOwner()));
    }

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 when it has no expiry. */
    public long remainTimeToLive() {
        return join(remainTimeToLiveAsync());
    }

    /** Not supported. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition: distributed conditions are not supported");
    }

    // ---------------------------------------------------------------- async

    /** Acquires the lock for {@code owner} with the watchdog lease, waiting as long as needed. */
    public CompletableFuture<Void> lockAsync(LockOwner owner) {
        return lockAsync(WATCHDOG, TimeUnit.MILLISECONDS, owner);
    }

    /**
     * Acquires the lock for {@code owner} for {@code leaseTime} (-1: the watchdog), waiting as long as
     * needed. Cancelling the future gives back a lock granted concurrently.
     */
    public CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit, LockOwner owner) {
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        LockArguments.notNull("owner", owner);
        return service.acquireUntilHeld(kind, name, owner, lease);
    }

    /** Like {@link #lockAsync(long, TimeUnit, LockOwner)} with a duration. */
    public CompletableFuture<Void> lockAsync(Duration leaseTime, LockOwner owner) {
        return lockAsync(LockArguments.leaseMillis(leaseTime, service.minLeaseMillis()), TimeUnit.MILLISECONDS, owner);
    }

    /** One attempt (watchdog lease): the future is true when {@code owner} holds the lock now. */
    public CompletableFuture<Boolean> tryLockAsync(LockOwner owner) {
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), WATCHDOG, 0);
    }

    /**
     * Acquires the lock for {@code owner} for {@code leaseTime} (-1: the watchdog) if it becomes free
     * within {@code waitTime}. The future completes with true (acquired) or false (the wait time passed,
     * also when Redis is unreachable), or fails with a non-retryable Redis error; it completes on an
     * event-loop or timer thread. Cancelling it gives back a lock granted concurrently.
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
     * Gives back one hold of {@code owner}. The future fails with {@link IllegalMonitorStateException}
     * when the owner does not hold the lock; a lost reply is retried with the same request id, so the
     * real owner never sees that exception because of a retry.
     */
    public CompletableFuture<Void> unlockAsync(LockOwner owner) {
        return service.release(kind, name, LockArguments.notNull("owner", owner));
    }

    /** Frees the lock whoever holds it (or, for one mode of a lock, if held in it); the future is true when it was. */
    public CompletableFuture<Boolean> forceUnlockAsync() {
        return service.forceRelease(kind, name);
    }

    /** Whether anyone holds the lock: its key exists. Kinds that share a key with other kinds refine this. */
    public CompletableFuture<Boolean> isLockedAsync() {
        return redis().pttl(name).thenApply(ttl -> ttl != -2);
    }

    /** Whether {@code owner} holds the lock: its hold field ({@link LockKind#holdField}) is in the hash. */
    public CompletableFuture<Boolean> isHeldByAsync(LockOwner owner) {
        return redis().hexists(name, kind.holdField(LockArguments.notNull("owner", owner)));
    }

    /** The hold count of {@code owner} (0 when it does not hold the lock): its hold field's value. */
    public CompletableFuture<Integer> getHoldCountAsync(LockOwner owner) {
        return redis().hget(name, kind.holdField(LockArguments.notNull("owner", owner)))
                .thenApply(count -> count == null ? 0 : Integer.parseInt(count));
    }

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 when it has no expiry. */
    public CompletableFuture<Long> remainTimeToLiveAsync() {
        return redis().pttl(name);
    }

    /**
     * Completes when {@code owner}'s current hold on this lock ends, telling how
     * ({@link HoldEnd#LOST} is the signal that the owner no longer has mutual exclusion). Completes
     * with {@link HoldEnd#RELEASED} at once when this client tracks no hold of {@code owner}.
     * Completes on an event-loop or timer thread.
     */
    public CompletableFuture<HoldEnd> holdEnd(LockOwner owner) {
        return service.holdEnd(kind, name, LockArguments.notNull("owner", owner));
    }

    /** {@link #holdEnd(LockOwner)} for the calling thread's hold. */
    public CompletableFuture<HoldEnd> holdEnd() {
        return holdEnd(currentOwner());
    }

    /** The lock's class, name, kind and client. */
    @Override
    public String toString() {
        return getClass().getSimpleName() + '[' + name + ", " + kind + ", client " + service.clientId() + ']';
    }

    /** The client's commands, for queries of subclasses. */
    protected final RedisCommands redis() {
        return service.redis();
    }

    /** The lock service this lock runs on. */
    protected final LockService service() {
        return service;
    }

    /** The kind of this lock. */
    protected final LockKind kind() {
        return kind;
    }

    // ---------------------------------------------------------------- waiting on the async path

    private boolean acquireBlocking(long leaseMillis, long waitNanos) throws InterruptedException {
        LockOwner owner = currentOwner();
        checkBlockingAllowed();
        return await(service.tryAcquire(kind, name, owner, leaseMillis, waitNanos), owner, true);
    }

    private void lockUninterruptibly(long leaseMillis) {
        LockOwner owner = currentOwner();
        checkBlockingAllowed();
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
        try {
            // The service's own futures are waited for by parking, without a waiter node per wait.
            return acquiring instanceof ParkingFuture<Boolean> parking ? parking.await(interruptible) : acquiring.get();
        } catch (InterruptedException e) {
            if (interruptible) {
                abandon(acquiring, owner);
            }
            throw e;
        } catch (ExecutionException e) {
            throw LockFutures.rethrowable(e.getCause());
        }
    }

    /**
     * A blocking acquisition on a client thread would wait for itself: fail before anything is
     * sent, also when the reply could have arrived in time on another thread.
     */
    private void checkBlockingAllowed() {
        Await.checkBlockingAllowed(operation());
    }

    private String operation() {
        return OPERATIONS.get(getClass());
    }

    private void abandon(CompletableFuture<Boolean> acquiring, LockOwner owner) {
        if (!acquiring.cancel(/* mayInterruptIfRunning= */ false)
                && !acquiring.isCompletedExceptionally() && Boolean.TRUE.equals(acquiring.getNow(false))) {
            service.release(kind, name, owner);
        }
    }

    private <T> T join(CompletableFuture<T> future) {
        return LockFutures.join(future, operation());
    }
}
