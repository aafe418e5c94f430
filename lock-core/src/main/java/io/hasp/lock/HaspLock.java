package io.hasp.lock;

import io.hasp.RedisException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A distributed lock on Redis with the {@link Lock} API: blocking, interruptible and timed
 * acquisition, async twins with an explicit {@link LockOwner}, unlock, queries and the hold's end.
 * {@code HaspClient.getLock(name)} returns the reentrant lock, wire-compatible with Redisson's
 * {@code RLock}: a hasp client and a Redisson client using the same name exclude and wake each
 * other. The two modes of a read/write lock ({@code io.hasp.lock.rw.ModeLock}) are HaspLocks too.
 *
 * <p><b>Holds.</b> The owner of a hold is a {@link LockOwner}: this client's id and a holder id.
 * The blocking methods use the calling thread's id ({@link #currentOwner()}) and wait on the async
 * ones: one algorithm. The {@code *Async} methods take the owner explicitly, because their
 * continuations run on other threads ({@link #owner(long)} makes one); their futures complete on
 * event-loop or timer threads, and waiting costs no thread. Holds are reentrant: each acquisition
 * adds one, each unlock removes one, and the lock is freed (and its waiters told) when the count
 * reaches zero.
 *
 * <p><b>Leases.</b> With a lease time the lock expires after it and is never renewed. Without
 * one (or with -1) the client's watchdog keeps it alive: the lease ({@code HaspConfig.watchdogLease},
 * 30 s by default) is renewed every third of it while held, and the hold's {@link #holdEnd} future
 * reports {@link HoldEnd#LOST} if the renewal finds it gone.
 *
 * <p><b>Waiting and fairness.</b> A waiter wakes on its lock's unlock message or, at the latest,
 * when the holder's lease runs out. When the reentrant lock's last hold is released while another
 * owner of the same client waits for it, the unlock script hands the lock straight to the
 * longest-waiting one; after at most 16 such hand-overs in a row the lock is freed for every
 * client's waiters. There is no global queue: like Redisson's lock, it is not fair across clients,
 * but no client's waiters are starved by another's.
 *
 * <p><b>Errors.</b> Bad arguments throw {@link IllegalArgumentException} and send nothing; an
 * unlock by a non-holder throws {@link IllegalMonitorStateException}; Redis failures surface as
 * {@link RedisException} subtypes (futures fail with them); a blocking call on one of the client's
 * own threads throws {@link IllegalStateException} instead of waiting for itself.
 *
 * <p>Locks come from the client (or from a read/write lock); they are cheap views, their state
 * lives in Redis and in the client, and they are thread-safe. {@code newCondition()} is not
 * supported.
 */
public interface HaspLock extends Lock {

    /** The lock's name: the Redis key of its hash. */
    String getName();

    /** The owner {@code holderId} of this client, for the async methods. */
    LockOwner owner(long holderId);

    /** The owner that the blocking methods use on the calling thread. */
    LockOwner currentOwner();

    /** Acquires the lock with the watchdog lease, waiting as long as needed; interrupts are deferred. */
    void lock();

    /**
     * Acquires the lock for {@code leaseTime} (never renewed; -1: the watchdog), waiting as long as
     * needed; interrupts are deferred until the lock is held.
     */
    void lock(long leaseTime, TimeUnit unit);

    /** Acquires the lock for {@code leaseTime} (never renewed), waiting as long as needed. */
    void lock(Duration leaseTime);

    /** Acquires the lock with the watchdog lease, waiting until it is held or the thread is interrupted. */
    void lockInterruptibly() throws InterruptedException;

    /** Like {@link #lockInterruptibly()} with a lease of {@code leaseTime} (-1: the watchdog). */
    void lockInterruptibly(long leaseTime, TimeUnit unit) throws InterruptedException;

    /** Like {@link #lockInterruptibly()} with a lease of {@code leaseTime}. */
    void lockInterruptibly(Duration leaseTime) throws InterruptedException;

    /** Acquires the lock (watchdog lease) only if it is free now; one round trip. */
    boolean tryLock();

    /**
     * Acquires the lock (watchdog lease) if it becomes free within {@code time}.
     *
     * @return true when acquired, false when the time passed first (also when Redis is unreachable)
     * @throws InterruptedException when interrupted; a lock granted at that moment is given back
     */
    boolean tryLock(long time, TimeUnit unit) throws InterruptedException;

    /** Like {@link #tryLock(long, TimeUnit)}. */
    boolean tryLock(Duration waitTime) throws InterruptedException;

    /**
     * Acquires the lock for {@code leaseTime} (-1: the watchdog) if it becomes free within {@code waitTime}.
     *
     * @return true when acquired, false when the wait time passed first (also when Redis is unreachable)
     * @throws InterruptedException when interrupted; a lock granted at that moment is given back
     */
    boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;

    /** Like {@link #tryLock(long, long, TimeUnit)} with durations. */
    boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /**
     * Gives back one hold of the calling thread; frees the lock when it was the last one.
     *
     * @throws IllegalMonitorStateException when the calling thread does not hold the lock
     */
    void unlock();

    /** Frees the lock whoever holds it (for a kind that is one mode of a lock: if held in that mode); true when it was. */
    boolean forceUnlock();

    /** Whether anyone (this client, another, or a Redisson client) holds the lock; see {@link #isLockedAsync()}. */
    boolean isLocked();

    /** Whether the calling thread holds the lock. */
    boolean isHeldByCurrentThread();

    /** Whether {@code owner} holds the lock. */
    boolean isHeldBy(LockOwner owner);

    /** The calling thread's hold count (0 when it does not hold the lock). */
    int getHoldCount();

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 when it has no expiry. */
    long remainTimeToLive();

    /**
     * Resets the lease of the calling thread's hold to {@code leaseTime} from now: for holds taken
     * with a lease time whose work needs longer than planned (a renewable lock registry, a
     * scheduled job extending its lock). Safe to retry: a send repeated after a lost reply answers
     * the same.
     *
     * @param leaseTime the new lease, from now; at least the client's timer tick
     * @return true when the thread still held the lock and its lease was reset; false when its
     *     hold had ended (lease run out, key deleted or lost): nothing changed, and what it does
     *     now is unprotected
     * @throws IllegalArgumentException when {@code leaseTime} is null or shorter than a timer tick
     * @throws IllegalStateException when the hold is kept by the watchdog, which renews it already
     */
    boolean extend(Duration leaseTime);

    /** Like {@link #extend(Duration)}. */
    boolean extend(long leaseTime, TimeUnit unit);

    /**
     * The async twin of {@link #extend(Duration)} for {@code owner}'s hold: the future is true when
     * the owner still held the lock and its lease was reset, false when its hold had ended; it
     * fails with {@link IllegalStateException} for a watchdog hold, or with a Redis error when no
     * reply came within the retry budget. Completes on an event-loop or timer thread.
     */
    CompletableFuture<Boolean> extendAsync(Duration leaseTime, LockOwner owner);

    /** Like {@link #extendAsync(Duration, LockOwner)}. */
    CompletableFuture<Boolean> extendAsync(long leaseTime, TimeUnit unit, LockOwner owner);

    /** Not supported. */
    Condition newCondition();

    /** Acquires the lock for {@code owner} with the watchdog lease, waiting as long as needed. */
    CompletableFuture<Void> lockAsync(LockOwner owner);

    /**
     * Acquires the lock for {@code owner} for {@code leaseTime} (-1: the watchdog), waiting as long as
     * needed. Cancelling the future gives back a lock granted concurrently.
     */
    CompletableFuture<Void> lockAsync(long leaseTime, TimeUnit unit, LockOwner owner);

    /** Like {@link #lockAsync(long, TimeUnit, LockOwner)} with a duration. */
    CompletableFuture<Void> lockAsync(Duration leaseTime, LockOwner owner);

    /** One attempt (watchdog lease): the future is true when {@code owner} holds the lock now. */
    CompletableFuture<Boolean> tryLockAsync(LockOwner owner);

    /**
     * Acquires the lock for {@code owner} for {@code leaseTime} (-1: the watchdog) if it becomes free
     * within {@code waitTime}. The future completes with true (acquired) or false (the wait time passed,
     * also when Redis is unreachable), or fails with a non-retryable Redis error; it completes on an
     * event-loop or timer thread. Cancelling it gives back a lock granted concurrently.
     */
    CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, LockOwner owner);

    /** Like {@link #tryLockAsync(long, long, TimeUnit, LockOwner)} with durations. */
    CompletableFuture<Boolean> tryLockAsync(Duration waitTime, Duration leaseTime, LockOwner owner);

    /** Like {@link #tryLockAsync(long, long, TimeUnit, LockOwner)} with the watchdog lease. */
    CompletableFuture<Boolean> tryLockAsync(Duration waitTime, LockOwner owner);

    /**
     * Gives back one hold of {@code owner}. The future fails with {@link IllegalMonitorStateException}
     * when the owner does not hold the lock; a lost reply is retried with the same request id, so the
     * real owner never sees that exception because of a retry. It fails with the Redis error when the unlock
     * failed or no answer came within the retry budget (about twice the command timeout); when it was to give
     * back the owner's last hold, the hold then ends {@link HoldEnd#LOST}, is not renewed any more, and its
     * lease runs out in Redis unless the unlock freed it.
     *
     * <p>The caller need not wait for it: a lock call of this lock by the same owner made meanwhile is sent once
     * this unlock has its answer, and the answer also reaches {@link #holdEnd(LockOwner)}.
     */
    CompletableFuture<Void> unlockAsync(LockOwner owner);

    /**
     * {@link #unlockAsync(LockOwner)} for the calling thread's hold: for a blocking caller that does not need the
     * unlock's answer before going on. It waits for one round trip per lock+unlock pair instead of two, unless it
     * locks this same lock again before the answer came (that lock call waits for it). Read the outcome from the
     * future or from {@link #holdEnd()} taken before.
     */
    default CompletableFuture<Void> unlockAsync() {
        return unlockAsync(currentOwner());
    }

    /** Frees the lock whoever holds it (or, for one mode of a lock, if held in it); the future is true when it was. */
    CompletableFuture<Boolean> forceUnlockAsync();

    /** Whether anyone holds the lock: its key exists. Kinds that share a key with other kinds refine this. */
    CompletableFuture<Boolean> isLockedAsync();

    /** Whether {@code owner} holds the lock: its hold field (hold field) is in the hash. */
    CompletableFuture<Boolean> isHeldByAsync(LockOwner owner);

    /** The hold count of {@code owner} (0 when it does not hold the lock): its hold field's value. */
    CompletableFuture<Integer> getHoldCountAsync(LockOwner owner);

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 when it has no expiry. */
    CompletableFuture<Long> remainTimeToLiveAsync();

    /**
     * Completes when {@code owner}'s current hold on this lock ends, telling how
     * ({@link HoldEnd#LOST} is the signal that the owner no longer has mutual exclusion). Completes
     * with {@link HoldEnd#RELEASED} at once when this client tracks no hold of {@code owner}.
     * Completes on an event-loop or timer thread.
     */
    CompletableFuture<HoldEnd> holdEnd(LockOwner owner);

    /** {@link #holdEnd(LockOwner)} for the calling thread's hold. */
    CompletableFuture<HoldEnd> holdEnd();
}
