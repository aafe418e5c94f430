package io.hasp.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A process-wide, lock-free histogram of acquire waits in nanoseconds, log-linear with 32 sub-buckets
 * per power of two (values are reported with at most ~3% error). The contended benchmark records into
 * it; {@link AcquireWaitProfiler} reads and resets it between JMH iterations. Thread-safe.
 *
 * <p>It also counts hand-offs: acquisitions whose holder differs from the previous holder's, so a
 * result can say how many acquisitions went to another thread rather than back to the releasing one; and
 * overtakes: acquisitions by a caller that began waiting more than {@link #OVERTAKE_MARGIN_NANOS} after
 * another caller that is still waiting (callers that use {@link #arrive} and {@link #granted}), so a
 * result can say how often the lock passed over an earlier waiter. The margin covers the time a caller
 * needs to reach the server's queue: callers closer together than that may reach it in either order.
 */
public final class WaitHistogram {

    private static final int SUB_BITS = 5;
    private static final int SUB_COUNT = 1 << SUB_BITS;
    private static final AtomicLongArray BUCKETS = new AtomicLongArray(64 * SUB_COUNT);
    private static final AtomicLong COUNT = new AtomicLong();
    private static final AtomicLong HANDOFFS = new AtomicLong();
    private static final AtomicLong LAST_HOLDER = new AtomicLong(-1);
    private static final AtomicLong OVERTAKES = new AtomicLong();
    /** When each caller began waiting (0: not waiting), one slot per calling thread. */
    private static final AtomicLongArray WAITING_SINCE = new AtomicLongArray(64);
    private static final AtomicInteger SLOTS = new AtomicInteger();
    private static final ThreadLocal<Integer> SLOT = ThreadLocal.withInitial(
            () -> SLOTS.getAndIncrement() % WAITING_SINCE.length());

    /** How much later than a waiter still waiting a caller must have begun for its grant to count as an overtake. */
    public static final long OVERTAKE_MARGIN_NANOS = 2_000_000;

    private WaitHistogram() {
    }

    /**
     * Records one acquisition: how long the caller waited and who it is.
     *
     * @param waitNanos the time from the call to the grant
     * @param holder an id of the acquiring thread
     */
    public static void record(long waitNanos, long holder) {
        BUCKETS.incrementAndGet(index(Math.max(0, waitNanos)));
        COUNT.incrementAndGet();
        if (LAST_HOLDER.getAndSet(holder) != holder) {
            HANDOFFS.incrementAndGet();
        }
    }

    /**
     * The calling thread begins waiting for the lock.
     *
     * @return the time it began, to pass to {@link #granted}
     */
    public static long arrive() {
        long now = System.nanoTime();
        WAITING_SINCE.set(SLOT.get(), now);
        return now;
    }

    /**
     * The calling thread, which began waiting at {@code since} ({@link #arrive}), got the lock: records its wait
     * and its thread as {@link #record} does, and an overtake when a caller that began waiting more than
     * {@link #OVERTAKE_MARGIN_NANOS} before it is still waiting.
     *
     * @param since what {@link #arrive} returned
     */
    public static void granted(long since) {
        long now = System.nanoTime();
        int own = SLOT.get();
        WAITING_SINCE.set(own, 0);
        for (int i = 0; i < WAITING_SINCE.length(); i++) {
            long other = WAITING_SINCE.get(i);
            if (i != own && other != 0 && since - other > OVERTAKE_MARGIN_NANOS) {
                OVERTAKES.incrementAndGet();
                break;
            }
        }
        record(now - since, Thread.currentThread().getId());
    }

    /**
     * Returns how many recorded acquisitions overtook an earlier waiter ({@link #granted}).
     *
     * @return the overtake count since the last reset
     */
    public static long overtakes() {
        return OVERTAKES.get();
    }

    /** Forgets everything recorded so far. */
    public static void reset() {
        for (int i = 0; i < BUCKETS.length(); i++) {
            BUCKETS.set(i, 0);
        }
        COUNT.set(0);
        HANDOFFS.set(0);
        LAST_HOLDER.set(-1);
        OVERTAKES.set(0);
    }

    /**
     * Returns how many acquisitions were recorded.
     *
     * @return the count since the last reset
     */
    public static long count() {
        return COUNT.get();
    }

    /**
     * Returns how many recorded acquisitions went to a different holder than the one before.
     *
     * @return the hand-off count since the last reset
     */
    public static long handoffs() {
        return HANDOFFS.get();
    }

    /**
     * Returns the wait at a quantile.
     *
     * @param quantile between 0 and 1, e.g. 0.99
     * @return the upper bound of the bucket holding that quantile, in nanoseconds; 0 when empty
     */
    public static long quantileNanos(double quantile) {
        long total = COUNT.get();
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS.length(); i++) {
            seen += BUCKETS.get(i);
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(BUCKETS.length() - 1);
    }

    static int index(long value) {
        if (value < SUB_COUNT) {
            return (int) value;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(value);
        int sub = (int) (value >>> (exponent - SUB_BITS)) & (SUB_COUNT - 1);
        return (exponent - SUB_BITS + 1) * SUB_COUNT + sub;
    }

    static long upperBound(int index) {
        if (index < SUB_COUNT) {
            return index;
        }
        int exponent = index / SUB_COUNT + SUB_BITS - 1;
        long sub = index % SUB_COUNT;
        long low = (1L << exponent) | (sub << (exponent - SUB_BITS));
        return low + (1L << (exponent - SUB_BITS)) - 1;
    }
}
