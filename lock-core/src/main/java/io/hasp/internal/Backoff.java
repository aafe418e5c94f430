package io.hasp.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The one backoff policy of the client: the pause before the next try after {@code n} failed ones
 * is {@code min * 2^n}, capped at {@code max}, spread by a jitter of up to {@code ±jitter} of
 * itself (never below 0 nor above {@code max}). Reconnects use it with the configured
 * {@code reconnectBackoff}; commands re-sent after a retryable failure (unlock, lease extension,
 * a cluster's {@code TRYAGAIN}) use {@link #COMMAND_RETRY}. Immutable and thread-safe.
 */
public final class Backoff {

    /** Re-sending a command that failed in a retryable way: 5 ms, doubling to 200 ms, no jitter. */
    public static final Backoff COMMAND_RETRY = new Backoff(Duration.ofMillis(5), Duration.ofMillis(200), 0);

    private final long minNanos;
    private final long maxNanos;
    private final double jitter;

    /**
     * @param min the first pause (zero: the second is 1 ms)
     * @param max the longest pause, at least {@code min}
     * @param jitter 0 to 1: how far each pause is spread, as a share of itself
     */
    public Backoff(Duration min, Duration max, double jitter) {
        if (min == null || min.isNegative() || max == null || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("backoff: " + min + ".." + max + " (expected: 0 <= min <= max)");
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("jitter: " + jitter + " (expected: 0..1)");
        }
        this.minNanos = min.toNanos();
        this.maxNanos = max.toNanos();
        this.jitter = jitter;
    }

    /**
     * The pause before the next try.
     *
     * @param failures how many tries failed so far (0: the pause after the first failure)
     * @return the pause in nanoseconds
     */
    public long delayNanos(int failures) {
        long base = minNanos;
        for (int i = 0; i < failures && base < maxNanos; i++) {
            base = base == 0 ? Math.min(maxNanos, TimeUnit.MILLISECONDS.toNanos(1)) : base * 2;
        }
        base = Math.min(base, maxNanos);
        if (jitter == 0) {
            return base;
        }
        double spread = jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1);
        return Math.max(0, Math.min(maxNanos, (long) (base * (1 + spread))));
    }
}
