package io.hasp.internal.lock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Argument checks of the lock API, public so that every lock module reports bad arguments the
 * same way: each failure is an {@link IllegalArgumentException} naming the argument, its value
 * and the rule ({@code "leaseTime: -5 (expected: > 0 or -1 for the watchdog)"}), thrown before
 * anything is sent to Redis. Stateless and thread-safe.
 */
public final class LockArguments {

    private LockArguments() {
    }

    /**
     * Checks a name (of a lock, a client id, ...).
     *
     * @param argument the argument's name, for the message
     * @return {@code value}
     * @throws IllegalArgumentException when {@code value} is null or empty
     */
    public static String name(String argument, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(argument + ": " + (value == null ? "null" : "\"\"")
                    + " (expected: a non-empty string)");
        }
        return value;
    }

    /**
     * Checks that {@code value} is not null.
     *
     * @param argument the argument's name, for the message
     * @return {@code value}
     * @throws IllegalArgumentException when {@code value} is null
     */
    public static <T> T notNull(String argument, T value) {
        if (value == null) {
            throw new IllegalArgumentException(argument + ": null (expected: non-null)");
        }
        return value;
    }

    /**
     * A lease as milliseconds, or -1 for the watchdog.
     *
     * @param leaseTime the lease in {@code unit}, or -1 for the watchdog
     * @param minMillis the shortest lease accepted (the timer's tick, {@link LockService#minLeaseMillis()})
     * @return the lease in milliseconds, or -1
     * @throws IllegalArgumentException when {@code unit} is null, or the lease is neither -1 nor at
     *     least {@code minMillis} milliseconds
     */
    public static long leaseMillis(long leaseTime, TimeUnit unit, long minMillis) {
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

    /**
     * A lease as milliseconds.
     *
     * @param minMillis the shortest lease accepted (the timer's tick, {@link LockService#minLeaseMillis()})
     * @return the lease in milliseconds
     * @throws IllegalArgumentException when {@code leaseTime} is null, not positive or shorter than
     *     {@code minMillis} milliseconds
     */
    public static long leaseMillis(Duration leaseTime, long minMillis) {
        notNull("leaseTime", leaseTime);
        if (leaseTime.isNegative() || leaseTime.isZero()) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: > 0)");
        }
        return leaseMillis(saturatedNanos(leaseTime), TimeUnit.NANOSECONDS, minMillis);
    }

    /**
     * A wait as nanoseconds.
     *
     * @return the wait in nanoseconds (>= 0, saturated at {@code Long.MAX_VALUE})
     * @throws IllegalArgumentException when {@code unit} is null or {@code waitTime} negative
     */
    public static long waitNanos(long waitTime, TimeUnit unit) {
        notNull("unit", unit);
        if (waitTime < 0) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: >= 0)");
        }
        return unit.toNanos(waitTime);
    }

    /**
     * A wait as nanoseconds.
     *
     * @return the wait in nanoseconds (>= 0, saturated at {@code Long.MAX_VALUE})
     * @throws IllegalArgumentException when {@code waitTime} is null or negative
     */
    public static long waitNanos(Duration waitTime) {
        notNull("waitTime", waitTime);
        if (waitTime.isNegative()) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: >= 0)");
        }
        return saturatedNanos(waitTime);
    }

    /**
     * A duration as milliseconds, at least {@code minMillis}.
     *
     * @param argument the argument's name, for the message
     * @return {@code value} in milliseconds
     * @throws IllegalArgumentException when {@code value} is null or shorter than {@code minMillis} milliseconds
     */
    public static long positiveMillis(String argument, Duration value, long minMillis) {
        notNull(argument, value);
        if (value.toMillis() < minMillis) {
            throw new IllegalArgumentException(argument + ": " + value + " (expected: >= " + minMillis + " ms)");
        }
        return value.toMillis();
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
