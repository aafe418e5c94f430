package io.hasp.internal.lock;

/**
 * Boxed {@code long} script arguments (leases, latch times) that recur call after call: a small
 * direct-mapped cache, so that sending the same lease again boxes nothing. Racy on purpose: a slot
 * holds an immutable {@code Long} or null, and a lost update only costs one more box.
 */
final class Boxes {

    private static final int SLOTS = 64;
    private static final Long[] CACHE = new Long[SLOTS];

    private Boxes() {
    }

    /** {@code value} boxed, from the cache when it was boxed here recently. */
    static Long of(long value) {
        int slot = (int) (value ^ (value >>> 32)) & (SLOTS - 1);
        Long boxed = CACHE[slot];
        if (boxed == null || boxed != value) {
            boxed = value;
            CACHE[slot] = boxed;
        }
        return boxed;
    }
}
