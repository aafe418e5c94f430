package io.hasp.internal.lock;

import io.hasp.Reply;

/**
 * What a kind's acquire answered: the owner holds the lock now ({@link #ACQUIRED}), or another holder has
 * it and the lock expires in {@link #remainingMillis()} (the bound of the next wait). Immutable; decoded
 * straight from the script's reply by {@link #REPLY}, with no stage after it.
 */
public final class AcquireOutcome {

    /** The owner holds the lock. */
    public static final AcquireOutcome ACQUIRED = new AcquireOutcome(true, 0);

    /** The acquire scripts' reply: nil when acquired, else the holder's remaining time in milliseconds. */
    public static final Reply<AcquireOutcome> REPLY = new Reply<>("ACQUIRE_OUTCOME") {
        @Override
        public AcquireOutcome integer(long value) {
            return busy(value);
        }

        @Override
        public AcquireOutcome nullValue() {
            return ACQUIRED;
        }
    };

    private final boolean acquired;
    private final long remainingMillis;

    private AcquireOutcome(boolean acquired, long remainingMillis) {
        this.acquired = acquired;
        this.remainingMillis = remainingMillis;
    }

    /**
     * Another holder has the lock.
     *
     * @param remainingMillis the lock's remaining time to live in milliseconds, -1 when it has no expiry
     * @return the outcome
     */
    public static AcquireOutcome busy(long remainingMillis) {
        return new AcquireOutcome(false, remainingMillis);
    }

    /** Whether the owner holds the lock. */
    public boolean acquired() {
        return acquired;
    }

    /** When busy: the lock's remaining time to live in milliseconds (-1: no expiry); 0 when acquired. */
    public long remainingMillis() {
        return remainingMillis;
    }

    @Override
    public String toString() {
        return acquired ? "acquired" : "busy for " + remainingMillis + " ms";
    }
}
