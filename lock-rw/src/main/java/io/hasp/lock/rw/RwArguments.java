package io.hasp.lock.rw;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Argument checks of the read/write lock API, with the same messages as the reentrant lock's:
 * each failure is an {@link IllegalArgumentException} naming the argument, its value and the
 * rule, thrown before anything is sent to Redis.
 */
final class RwArguments {

    private RwArguments() {
    }

    static String name(String argument, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(argument + ": " + (value == null ? "null" : "\"\"")
                    + " (expected: a non-empty string)");
        }
        return value;
    }

    static <T> T notNull(String argument, T value) {
        if (value == null) {
            throw new IllegalArgumentException(argument + ": null (expected: non-null)");
        }
        return value;
    }

    /** A lease as milliseconds (at least {@code minMillis}), or -1 for the watchdog. */
    static long leaseMillis(long leaseTime, TimeUnit unit, long minMillis) {
        notNull("unit", unit);
        if (leaseTime == -1) {
            return -1;
        }
        if (leaseTime <= 0) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: > 0 or -1 for the watchdog)");
        }
        long millis = unit.toMillis(leaseTime);
        if (millis < minMillis) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + ' ' + unit + " (expected: >= "
                    + minMillis + " ms, the timer's tick, or -1 for the watchdog)");
        }
        return millis;
    }

    /** A lease as milliseconds (at least {@code minMillis}). */
    static long leaseMillis(Duration leaseTime, long minMillis) {
        notNull("leaseTime", leaseTime);
        if (leaseTime.isNegative() || leaseTime.isZero()) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: > 0)");
        }
        return leaseMillis(saturatedNanos(leaseTime), TimeUnit.NANOSECONDS, minMillis);
    }

    /** A wait as nanoseconds (>= 0). */
    static long waitNanos(long waitTime, TimeUnit unit) {
        notNull("unit", unit);
        if (waitTime < 0) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: >= 0)");
        }
        return unit.toNanos(waitTime);
    }

    /** A wait as nanoseconds (>= 0). */
    static long waitNanos(Duration waitTime) {
        notNull("waitTime", waitTime);
        if (waitTime.isNegative()) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: >= 0)");
        }
        return saturatedNanos(waitTime);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
