package io.hasp.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A process-wide, lock-free histogram of acquire waits in nanoseconds, log-linear with 32 sub-buckets
 * per power of two (values are reported with at most ~3% error). The contended benchmark records into
 * it; {@link AcquireWaitProfiler} reads and resets it between JMH iterations. Thread-safe.
 *
 * <p>It also counts hand-offs: acquisitions whose holder differs from the previous holder's, so a
 * result can say how many acquisitions went to another thread rather than back to the releasing one.
 */
public final class WaitHistogram {

    private static final int SUB_BITS = 5;
    private static final int SUB_COUNT = 1 << SUB_BITS;
    private static final AtomicLongArray BUCKETS = new AtomicLongArray(64 * SUB_COUNT);
    private static final AtomicLong COUNT = new AtomicLong();
    private static final AtomicLong HANDOFFS = new AtomicLong();
    private static final AtomicLong LAST_HOLDER = new AtomicLong(-1);

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

    /** Forgets everything recorded so far. */
    public static void reset() {
        for (int i = 0; i < BUCKETS.length(); i++) {
            BUCKETS.set(i, 0);
        }
        COUNT.set(0);
        HANDOFFS.set(0);
        LAST_HOLDER.set(-1);
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
