package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.Futures;
import io.hasp.internal.ParkingFuture;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The one implementation of {@link HaspLock}: a lock of one {@link LockKind} on a {@link LockService}.
 * The reentrant lock is a {@code KindLock} of the reentrant kind; other lock modules subclass it to
 * add only their kind and what is special to it (the read/write lock's modes refine
 * {@link #isLockedAsync()}).
 *
 * <p>The blocking methods wait on the async ones: one algorithm. Instances are cheap views and
 * thread-safe.
 *
 * <p>This file is over 300 lines because {@link HaspLock} is wide (blocking, async, {@code Duration}
 * and {@code TimeUnit} forms of each call): each method is a few lines handing over to
 * {@link LockService} or to its async twin, and the one blocking wait they share closes the file.
 */
public class KindLock implements HaspLock {

    private static final long NO_WAIT = -1;
    private static final long WATCHDOG = -1;
    /** Waits longer than this (a year) are no deadline for a direct connection's read: the sum would overflow. */
    private static final long MAX_TRACKED_WAIT_NANOS = TimeUnit.DAYS.toNanos(365);

    /** The API a lock class implements ("HaspLock", "ModeLock"), once per class, for errors and toString. */
    private static final ClassValue<String> API_NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Class<?> api : c.getInterfaces()) {
                    if (HaspLock.class.isAssignableFrom(api)) {
                        return api.getSimpleName();
                    }
                }
            }
            return HaspLock.class.getSimpleName();
        }
    };

    /** "a blocking HaspLock call", once per lock class: the blocking methods name themselves in errors. */
    private static final ClassValue<String> OPERATIONS = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return "a blocking " + API_NAMES.get(type) + " call";
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
    public KindLock(LockService service, LockKind kind, String name) {
        this.service = LockArguments.notNull("service", service);
        this.kind = LockArguments.notNull("kind", kind);
        this.name = LockArguments.name("name", name);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public LockOwner owner(long holderId) {
        return service.owner(holderId);
    }

    @Override
    public LockOwner currentOwner() {
        return service.currentOwner();
    }

    // ---------------------------------------------------------------- blocking acquisition

    @Override
    public void lock() {
        lockUninterruptibly(WATCHDOG);
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        lockUninterruptibly(LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis()));
    }

    @Override
    public void lock(Duration leaseTime) {
        lockUninterruptibly(LockArguments.leaseMillis(leaseTime, service.minLeaseMillis()));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireBlocking(WATCHDOG, NO_WAIT);
    }

    @Override
    public void lockInterruptibly(long leaseTime, TimeUnit unit) throws InterruptedException {
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        acquireBlocking(lease, NO_WAIT);
    }

    @Override
    public void lockInterruptibly(Duration leaseTime) throws InterruptedException {
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        acquireBlocking(lease, NO_WAIT);
    }

    @Override
    public boolean tryLock() {
        LockOwner owner = currentOwner();
        checkBlockingAllowed();
        boolean outer = CallerWaits.enter();
        try {
            return awaitUninterruptibly(service.tryAcquire(kind, name, owner, WATCHDOG, 0), owner);
        } finally {
            CallerWaits.exit(outer);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(time, unit);
        return acquireBlocking(WATCHDOG, wait);
    }

    @Override
    public boolean tryLock(Duration waitTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        return acquireBlocking(WATCHDOG, wait);
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime, unit);
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        return acquireBlocking(lease, wait);
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        return acquireBlocking(lease, wait);
    }

    // ---------------------------------------------------------------- blocking release and queries

    @Override
    public void unlock() {
        LockOwner owner = currentOwner();
        boolean outer = CallerWaits.enter();
        try {
            join(service.release(kind, name, owner));
        } finally {
            CallerWaits.exit(outer);
        }
    }

    @Override
    public boolean forceUnlock() {
        return join(forceUnlockAsync());
    }

    @Override
    public boolean isLocked() {
        return join(isLockedAsync());
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return join(isHeldByAsync(currentOwner()));
    }

    @Override
    public boolean isHeldBy(LockOwner owner) {
        return join(isHeldByAsync(owner));
    }

    @Override
    public int getHoldCount() {
        return join(getHoldCountAsync(currentOwner()));
    }

    @Override
    public boolean extend(Duration leaseTime) {
        return join(extendAsync(leaseTime, currentOwner()));
    }

    @Override
    public boolean extend(long leaseTime, TimeUnit unit) {
        return join(extendAsync(leaseTime, unit, currentOwner()));
    }

    @Override
    public CompletableFuture<Boolean> extendAsync(Duration leaseTime, LockOwner owner) {
        long lease = LockArguments.positiveMillis("leaseTime", leaseTime, service.minLeaseMillis());
        return service.extend(kind, name, LockArguments.notNull("owner", owner), lease);
    }

    @Override
    public CompletableFuture<Boolean> extendAsync(long leaseTime, TimeUnit unit, LockOwner owner) {
        LockArguments.notNull("unit", unit);
        return extendAsync(Duration.ofMillis(unit.toMillis(leaseTime)), owner);
    }

    @Override
    public long remainTimeToLive() {
        return join(remainTimeToLiveAsync());
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition: distributed conditions are not supported");
    }

    // ---------------------------------------------------------------- async

    @Override
    public CompletableFuture<Void> lockAsync(LockOwner owner) {
        return lockAsync(WATCHDOG, TimeUnit.MILLISECONDS, owner);
    }

    @Override
    public CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit, LockOwner owner) {
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        LockArguments.notNull("owner", owner);
        return service.acquireUntilHeld(kind, name, owner, lease);
    }

    @Override
    public CompletableFuture<Void> lockAsync(Duration leaseTime, LockOwner owner) {
        return lockAsync(LockArguments.leaseMillis(leaseTime, service.minLeaseMillis()), TimeUnit.MILLISECONDS, owner);
    }

    @Override
    public CompletableFuture<Boolean> tryLockAsync(LockOwner owner) {
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), WATCHDOG, 0);
    }

    @Override
    public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime, unit);
        long lease = LockArguments.leaseMillis(leaseTime, unit, service.minLeaseMillis());
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), lease, wait);
    }

    @Override
    public CompletableFuture<Boolean> tryLockAsync(Duration waitTime, Duration leaseTime, LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime);
        long lease = LockArguments.leaseMillis(leaseTime, service.minLeaseMillis());
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), lease, wait);
    }

    @Override
    public CompletableFuture<Boolean> tryLockAsync(Duration waitTime, LockOwner owner) {
        long wait = LockArguments.waitNanos(waitTime);
        return service.tryAcquire(kind, name, LockArguments.notNull("owner", owner), WATCHDOG, wait);
    }

    @Override
    public CompletableFuture<Void> unlockAsync(LockOwner owner) {
        return service.release(kind, name, LockArguments.notNull("owner", owner));
    }

    @Override
    public CompletableFuture<Boolean> forceUnlockAsync() {
        return service.forceRelease(kind, name);
    }

    @Override
    public CompletableFuture<Boolean> isLockedAsync() {
        return redis().pttl(name).thenApply(ttl -> ttl != -2);
    }

    @Override
    public CompletableFuture<Boolean> isHeldByAsync(LockOwner owner) {
        return redis().hexists(name, kind.holdField(LockArguments.notNull("owner", owner)));
    }

    @Override
    public CompletableFuture<Integer> getHoldCountAsync(LockOwner owner) {
        return redis().hget(name, kind.holdField(LockArguments.notNull("owner", owner)))
                .thenApply(count -> count == null ? 0 : Integer.parseInt(count));
    }

    @Override
    public CompletableFuture<Long> remainTimeToLiveAsync() {
        return redis().pttl(name);
    }

    @Override
    public CompletableFuture<HoldEnd> holdEnd(LockOwner owner) {
        return service.holdEnd(kind, name, LockArguments.notNull("owner", owner));
    }

    @Override
    public CompletableFuture<HoldEnd> holdEnd() {
        return holdEnd(currentOwner());
    }

    @Override
    public String toString() {
        return API_NAMES.get(getClass()) + '[' + name + ", " + kind + ", client " + service.clientId() + ']';
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
        if (Thread.interrupted()) {
            throw new InterruptedException();   // Lock's contract: interrupted on entry; nothing was sent
        }
        // A bounded wait's thread reads a reply itself only until the wait ends, as it would wait parked.
        boolean outer = CallerWaits.enter(waitNanos > 0 && waitNanos < MAX_TRACKED_WAIT_NANOS
                ? Math.max(1, System.nanoTime() + waitNanos) : 0);
        try {
            return await(service.tryAcquire(kind, name, owner, leaseMillis, waitNanos), owner, true);
        } finally {
            CallerWaits.exit(outer);
        }
    }

    private void lockUninterruptibly(long leaseMillis) {
        LockOwner owner = currentOwner();
        checkBlockingAllowed();
        boolean outer = CallerWaits.enter();
        try {
            awaitUninterruptibly(service.tryAcquire(kind, name, owner, leaseMillis, NO_WAIT), owner);
        } finally {
            CallerWaits.exit(outer);
        }
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
            if (interruptible && Thread.interrupted()) {
                // Interrupted while acquiring, also while its thread read the reply itself on a direct
                // connection (a socket read does not end at an interrupt): what was granted is given back.
                throw new InterruptedException();
            }
            // The service's own futures are waited for by parking, without a waiter node per wait.
            return acquiring instanceof ParkingFuture<Boolean> parking ? parking.await(interruptible) : acquiring.get();
        } catch (InterruptedException e) {
            if (interruptible) {
                abandon(acquiring, owner);
            }
            throw e;
        } catch (ExecutionException e) {
            throw Futures.rethrowable(e.getCause());
        }
    }

    /**
     * A blocking acquisition on a client thread would wait for itself: fail before anything is
     * sent, also when the reply could have arrived in time on another thread.
     */
    private void checkBlockingAllowed() {
        Futures.checkBlockingAllowed(operation());
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
        return Futures.join(future, operation());
    }
}
