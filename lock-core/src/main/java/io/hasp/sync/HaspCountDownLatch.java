package io.hasp.sync;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A distributed count-down latch, in the layout of Redisson's {@code RCountDownLatch}: the count is a decimal number
 * at the latch's name (no key: the latch is open), and its waiters listen on
 * {@code redisson_countdownlatch__channel__{<name>}}, so that hasp and Redisson clients share one latch: wait until N
 * workers, anywhere, have finished.
 *
 * <p>Unlike {@link java.util.concurrent.CountDownLatch}, a latch can be used again: once open, {@link #trySetCount}
 * sets a new count. A waiter listens on the latch's channel (one subscription per client and latch) and also looks
 * again every few seconds and at its deadline, so a message lost costs at most that. Counting down an open latch does
 * nothing. Closing the client ends its waits with {@link io.hasp.RedisClosedException}. On a Redis Cluster the name
 * must not carry a hash tag of its own (braces): the channel always adds one, as Redisson's does.
 *
 * <p>Blocking calls must not run on a hasp client's own threads (they fail at once with
 * {@link IllegalStateException}); the async twins complete on them.
 */
public interface HaspCountDownLatch {

    /** @return the latch's name, its Redis key */
    String getName();

    /**
     * Sets the count, unless the latch has one (it is not open).
     *
     * @param count the count, at least 1
     * @return true when it was set; false when the latch had a count (nothing changed)
     * @throws IllegalArgumentException when {@code count} is below 1
     */
    boolean trySetCount(long count);

    /** @see #trySetCount(long) */
    CompletableFuture<Boolean> trySetCountAsync(long count);

    /** Counts down by one; at zero the latch opens and its waiters, here and in other clients, are told. */
    void countDown();

    /** @see #countDown() */
    CompletableFuture<Void> countDownAsync();

    /** @return the count now; 0 when the latch is open */
    long getCount();

    /** @see #getCount() */
    CompletableFuture<Long> getCountAsync();

    /**
     * Waits until the latch is open, as long as it takes.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    void await() throws InterruptedException;

    /**
     * Waits at most {@code waitTime} until the latch is open.
     *
     * @param waitTime how long to wait at most; zero or negative: look once
     * @return whether the latch is open
     * @throws InterruptedException when interrupted while waiting
     */
    boolean await(Duration waitTime) throws InterruptedException;

    /** @see #await(Duration) */
    boolean await(long waitTime, TimeUnit unit) throws InterruptedException;

    /** {@link #await()} without blocking. Cancelling the future gives up the wait. */
    CompletableFuture<Void> awaitAsync();

    /** {@link #await(Duration)} without blocking. Cancelling the future gives up the wait. */
    CompletableFuture<Boolean> awaitAsync(Duration waitTime);

    /**
     * Deletes the latch: it opens, and its waiters look again.
     *
     * @return true when the latch had a count
     */
    boolean delete();

    /** @see #delete() */
    CompletableFuture<Boolean> deleteAsync();
}
