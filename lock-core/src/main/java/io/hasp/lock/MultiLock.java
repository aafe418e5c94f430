package io.hasp.lock;

import io.hasp.internal.lock.LockArguments;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * One lock over several {@link HaspLock}s: it holds all of them or none. The members may be of any
 * kind (reentrant, fenced, a read or write lock's mode) and belong to one client or to several
 * clients on different servers. Typical use: an operation that touches several accounts or stock
 * items, each with its own lock.
 *
 * <pre>{@code
 * MultiLock both = MultiLock.of(client.getLock("account:17"), client.getLock("account:42"));
 * if (both.tryLock(Duration.ofSeconds(2), Duration.ofSeconds(30))) {
 *     try { transfer(17, 42); } finally { both.unlock(); }
 * }
 * }</pre>
 *
 * <ul>
 *   <li><b>No deadlock.</b> Members are acquired one after another in the order of their names,
 *       whatever order they were given in. Two multi-locks over overlapping names therefore take
 *       the shared names in the same order and cannot each hold what the other waits for. A name
 *       may appear only once.</li>
 *   <li><b>All or none.</b> When a member cannot be had within the wait or fails, the members
 *       already acquired are released (in reverse order) before the call returns {@code false} or
 *       throws. When the caller cancels, times out its future or is interrupted, they are released
 *       right after, without waiting for it.</li>
 *   <li><b>Times.</b> One wait time is shared by all members (each waits for what is left of it);
 *       the lease applies to each member, or each is renewed by its client's watchdog.</li>
 *   <li><b>Unlock</b> releases every member in reverse order; a member that fails to unlock does not
 *       stop the others, and its error is thrown once all were tried.</li>
 * </ul>
 *
 * <p>The blocking methods hold the members for the calling thread ({@code currentOwner()} of each
 * member's client); the async methods take a holder id and use {@code member.owner(holderId)} on
 * each member's client. The blocking methods wait on the async ones. Thread-safe; {@code newCondition()}
 * is not supported.
 */
public final class MultiLock implements Lock {

    private static final long WATCHDOG = LockCalls.WATCHDOG;
    private static final long NO_DEADLINE = LockCalls.NO_DEADLINE;
    private static final String OPERATION = "a blocking MultiLock call";

    private final List<HaspLock> members;

    private MultiLock(List<HaspLock> members) {
        this.members = members;
    }

    /**
     * A multi-lock over {@code locks}.
     *
     * @throws IllegalArgumentException when no lock is given, one is null, or two have the same name
     */
    public static MultiLock of(HaspLock... locks) {
        if (locks == null) {
            throw new IllegalArgumentException("locks: null (expected: at least one lock)");
        }
        return of(List.of(nonNull(locks)));
    }

    /**
     * A multi-lock over {@code locks}.
     *
     * @throws IllegalArgumentException when no lock is given, one is null, or two have the same name
     */
    public static MultiLock of(Collection<? extends HaspLock> locks) {
        if (locks == null || locks.isEmpty()) {
            throw new IllegalArgumentException("locks: " + (locks == null ? "null" : "empty")
                    + " (expected: at least one lock)");
        }
        List<HaspLock> sorted = new ArrayList<>(locks.size());
        for (HaspLock lock : locks) {
            if (lock == null) {
                throw new IllegalArgumentException("locks: a null lock in " + locks);
            }
            sorted.add(lock);
        }
        sorted.sort(Comparator.comparing(HaspLock::getName));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).getName().equals(sorted.get(i - 1).getName())) {
                throw new IllegalArgumentException("locks: the name " + sorted.get(i).getName()
                        + " appears twice (expected: each lock once; the same name twice would wait for itself)");
            }
        }
        return new MultiLock(List.copyOf(sorted));
    }

    private static HaspLock[] nonNull(HaspLock[] locks) {
        for (HaspLock lock : locks) {
            if (lock == null) {
                throw new IllegalArgumentException("locks: a null lock");
            }
        }
        return locks;
    }

    /** The members, in the order they are acquired (by name). */
    public List<HaspLock> locks() {
        return members;
    }

    // ---------------------------------------------------------------- blocking

    /** Acquires every member with the watchdog lease, waiting as long as needed; interrupts are deferred. */
    @Override
    public void lock() {
        LockCalls.checkBlockingAllowed(OPERATION);
        LockCalls.join(start(WATCHDOG, NO_DEADLINE, LockCalls.currentHolder()), OPERATION);
    }

    /** Acquires every member for {@code leaseTime} (never renewed), waiting as long as needed. */
    public void lock(Duration leaseTime) {
        long lease = LockCalls.leaseNanos(leaseTime);
        LockCalls.checkBlockingAllowed(OPERATION);
        LockCalls.join(start(lease, NO_DEADLINE, LockCalls.currentHolder()), OPERATION);
    }

    /** Acquires every member with the watchdog lease, waiting until all are held or the thread is interrupted. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireInterruptibly(WATCHDOG, NO_DEADLINE);
    }

    /** Acquires every member (watchdog lease) only if each is free now; one attempt per member. */
    @Override
    public boolean tryLock() {
        LockCalls.checkBlockingAllowed(OPERATION);
        return LockCalls.join(start(WATCHDOG, 0, LockCalls.currentHolder()), OPERATION);
    }

    /** Acquires every member (watchdog lease), waiting at most {@code time} in all. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquireInterruptibly(WATCHDOG, LockArguments.waitNanos(time, unit));
    }

    /** Acquires every member (watchdog lease), waiting at most {@code waitTime} in all. */
    public boolean tryLock(Duration waitTime) throws InterruptedException {
        return acquireInterruptibly(WATCHDOG, LockArguments.waitNanos(waitTime));
    }

    /** Acquires every member for {@code leaseTime} each (-1: the watchdog), waiting at most {@code waitTime} in all. */
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime, unit);
        return acquireInterruptibly(LockCalls.leaseNanos(leaseTime, unit), wait);
    }

    /** Acquires every member for {@code leaseTime} each, waiting at most {@code waitTime} in all. */
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        long wait = LockArguments.waitNanos(waitTime);
        return acquireInterruptibly(LockCalls.leaseNanos(leaseTime), wait);
    }

    /**
     * Releases every member held by the calling thread, in reverse order.
     *
     * @throws IllegalMonitorStateException (or another failure) of the first member that could not be
     *     unlocked, once every member was tried; the others' failures are suppressed in it
     */
    @Override
    public void unlock() {
        LockCalls.join(unlockAsync(LockCalls.currentHolder()), OPERATION);
    }

    /** Whether the calling thread holds every member, as each member's server says. */
    public boolean isHeldByCurrentThread() {
        for (HaspLock member : members) {
            if (!member.isHeldByCurrentThread()) {
                return false;
            }
        }
        return true;
    }

    /** Not supported: there are no distributed conditions. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition: distributed conditions are not supported");
    }

    // ---------------------------------------------------------------- async

    /**
     * Acquires every member for holder {@code holderId} with the watchdog lease; completes with null
     * once all are held. Cancelling it (or ending it any other way) gives back what it acquired.
     */
    public CompletableFuture<Void> lockAsync(long holderId) {
        return new MultiAcquisition(members, holderId, WATCHDOG, NO_DEADLINE).startLocking();
    }

    /**
     * Acquires every member for holder {@code holderId}, {@code leaseTime} each, waiting at most
     * {@code waitTime} in all; completes with {@code true} when all are held, {@code false} (nothing
     * held) when the wait passed. Cancelling it (or ending it any other way) gives back what it acquired.
     */
    public CompletableFuture<Boolean> tryLockAsync(Duration waitTime, Duration leaseTime, long holderId) {
        long wait = LockArguments.waitNanos(waitTime);
        return start(LockCalls.leaseNanos(leaseTime), wait, holderId);
    }

    /**
     * Releases every member held by holder {@code holderId}, in reverse order; fails with the first
     * member's failure (the others suppressed in it) once every member was tried.
     */
    public CompletableFuture<Void> unlockAsync(long holderId) {
        return MultiAcquisition.release(members, holderId);
    }

    @Override
    public String toString() {
        List<String> names = new ArrayList<>(members.size());
        for (HaspLock member : members) {
            names.add(member.getName());
        }
        return "MultiLock" + names;
    }

    // ---------------------------------------------------------------- helpers

    private CompletableFuture<Boolean> start(long leaseNanos, long waitNanos, long holderId) {
        return new MultiAcquisition(members, holderId, leaseNanos, waitNanos).start();
    }

    /** A blocking acquisition for the calling thread that an interrupt ends, giving back what it took. */
    private boolean acquireInterruptibly(long leaseNanos, long waitNanos) throws InterruptedException {
        LockCalls.checkBlockingAllowed(OPERATION);
        long holder = LockCalls.currentHolder();
        return LockCalls.awaitInterruptibly(start(leaseNanos, waitNanos, holder), OPERATION,
                () -> unlockAsync(holder));
    }
}
