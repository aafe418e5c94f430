package io.hasp.sync;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A distributed counting semaphore, in the layout of Redisson's {@code RSemaphore}: the free permits are a decimal
 * number at the semaphore's name, and releases are announced on {@code redisson_sc:{<name>}} with the new number of
 * free permits, so that hasp and Redisson clients share one semaphore.
 *
 * <p>Permits belong to nobody: any client may release permits it never took, and a permit taken by a process that
 * dies is not given back by itself. Until {@link #trySetPermits} (or {@link #addPermits}) sets them, a semaphore has
 * no permits.
 *
 * <p>A waiting acquisition listens on the semaphore's channel (one subscription per client and semaphore): a
 * release of n permits wakes at most n of this client's waiters, and each looks again at least every few seconds
 * anyway. A waiter whose wait ends (deadline, interrupt, cancelled future) while its permits are granted gives them
 * back; a wait interrupted just as its permits were granted keeps them, and its thread keeps its interrupt status.
 * When a command fails (the server unreachable, no reply in time) the call fails with that
 * {@link io.hasp.RedisException}; for an acquisition whose reply was lost the permits may have been taken. Closing the
 * client ends its waits with {@link io.hasp.RedisClosedException}.
 *
 * <p>Blocking calls must not run on a hasp client's own threads (they fail at once with
 * {@link IllegalStateException}); the async twins complete on them.
 */
public interface HaspSemaphore {

    /** @return the semaphore's name, its Redis key */
    String getName();

    /**
     * Sets the number of permits, unless they were set before.
     *
     * @param permits the permits, at least 0
     * @return true when they were set; false when the semaphore had permits set already (nothing changed)
     * @throws IllegalArgumentException when {@code permits} is negative
     */
    boolean trySetPermits(int permits);

    /** @see #trySetPermits(int) */
    CompletableFuture<Boolean> trySetPermitsAsync(int permits);

    /**
     * Adds permits (or takes some away, when negative) and wakes waiters for them.
     *
     * @param permits how many to add
     */
    void addPermits(int permits);

    /** @see #addPermits(int) */
    CompletableFuture<Void> addPermitsAsync(int permits);

    /** @return the number of permits free now (0 when they were never set) */
    int availablePermits();

    /** @see #availablePermits() */
    CompletableFuture<Integer> availablePermitsAsync();

    /**
     * Takes every free permit: the count is 0 afterwards.
     *
     * @return how many permits were taken; the count itself when it was below zero (permits taken away by a negative
     *     {@link #addPermits}), as Redisson's {@code drainPermits} answers
     */
    int drainPermits();

    /** @see #drainPermits() */
    CompletableFuture<Integer> drainPermitsAsync();

    /**
     * Takes one permit, waiting as long as it takes.
     *
     * @throws InterruptedException when interrupted while waiting (a permit granted meanwhile is given back)
     */
    void acquire() throws InterruptedException;

    /**
     * Takes {@code permits} permits at once, waiting as long as it takes.
     *
     * @param permits how many, at least 1
     * @throws InterruptedException when interrupted while waiting (permits granted meanwhile are given back)
     * @throws IllegalArgumentException when {@code permits} is below 1
     */
    void acquire(int permits) throws InterruptedException;

    /** @return whether one permit was free and is now taken, without waiting */
    boolean tryAcquire();

    /**
     * Takes {@code permits} permits if that many are free now, without waiting.
     *
     * @param permits how many, at least 1
     * @return whether they were taken
     * @throws IllegalArgumentException when {@code permits} is below 1
     */
    boolean tryAcquire(int permits);

    /**
     * Takes one permit, waiting at most {@code waitTime}.
     *
     * @return whether it was taken within the wait
     * @throws InterruptedException when interrupted while waiting
     */
    boolean tryAcquire(Duration waitTime) throws InterruptedException;

    /** @see #tryAcquire(Duration) */
    boolean tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException;

    /**
     * Takes {@code permits} permits at once, waiting at most {@code waitTime}.
     *
     * @param permits how many, at least 1
     * @param waitTime how long to wait at most; zero or negative: a single try
     * @return whether they were taken within the wait
     * @throws InterruptedException when interrupted while waiting (permits granted meanwhile are given back)
     */
    boolean tryAcquire(int permits, Duration waitTime) throws InterruptedException;

    /** @see #tryAcquire(int, Duration) */
    boolean tryAcquire(int permits, long waitTime, TimeUnit unit) throws InterruptedException;

    /** Gives one permit back (or adds one), waking a waiter. */
    void release();

    /**
     * Gives {@code permits} permits back (or adds them), waking waiters for them.
     *
     * @param permits how many, at least 1
     * @throws IllegalArgumentException when {@code permits} is below 1
     */
    void release(int permits);

    /**
     * {@link #acquire(int)} without blocking: completes when the permits are taken. Cancelling the future gives up
     * the wait (and gives back permits granted meanwhile).
     */
    CompletableFuture<Void> acquireAsync(int permits);

    /** {@link #tryAcquire(int)} without blocking. */
    CompletableFuture<Boolean> tryAcquireAsync(int permits);

    /**
     * {@link #tryAcquire(int, Duration)} without blocking. Cancelling the future gives up the wait (and gives back
     * permits granted meanwhile).
     */
    CompletableFuture<Boolean> tryAcquireAsync(int permits, Duration waitTime);

    /** {@link #release(int)} without blocking. */
    CompletableFuture<Void> releaseAsync(int permits);
}
