package io.hasp.internal.lock;

import io.hasp.Reply;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * What a kind's acquire answered: the owner holds the lock now ({@link #ACQUIRED}, or
 * {@link #acquired(long)} with the acquisition's fencing token), or another holder has it and the
 * lock expires in {@link #remainingMillis()} (the bound of the next wait). Immutable; decoded
 * straight from the script's reply by {@link #REPLY} or {@link #FENCED_REPLY}, with no stage after it.
 */
public final class AcquireOutcome {

    /** The owner holds the lock (no token: the kind issues none). */
    public static final AcquireOutcome ACQUIRED = new AcquireOutcome(true, 0, 0);

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

    /**
     * The fenced acquire script's reply: the token as a bulk string when acquired, else the
     * holder's remaining time in milliseconds as an integer.
     */
    public static final Reply<AcquireOutcome> FENCED_REPLY = new Reply<>("FENCED_ACQUIRE_OUTCOME") {
        @Override
        public AcquireOutcome integer(long value) {
            return busy(value);
        }

        @Override
        public AcquireOutcome bulkString(ByteBuf content) {
            return acquired(Long.parseLong(content.toString(StandardCharsets.US_ASCII)));
        }
    };

    private final boolean acquired;
    private final long remainingMillis;
    private final long token;

    private AcquireOutcome(boolean acquired, long remainingMillis, long token) {
        this.acquired = acquired;
        this.remainingMillis = remainingMillis;
        this.token = token;
    }

    /**
     * The owner holds the lock, and this acquisition's fencing token is {@code token}.
     *
     * @param token the token, greater than 0
     * @return the outcome
     */
    public static AcquireOutcome acquired(long token) {
        return new AcquireOutcome(true, 0, token);
    }

    /**
     * Another holder has the lock.
     *
     * @param remainingMillis the lock's remaining time to live in milliseconds, -1 when it has no expiry
     * @return the outcome
     */
    public static AcquireOutcome busy(long remainingMillis) {
        return new AcquireOutcome(false, remainingMillis, 0);
    }

    /** Whether the owner holds the lock. */
    public boolean acquired() {
        return acquired;
    }

    /** When busy: the lock's remaining time to live in milliseconds (-1: no expiry); 0 when acquired. */
    public long remainingMillis() {
        return remainingMillis;
    }

    /** When acquired by a kind that issues fencing tokens: the acquisition's token; else 0. */
    public long token() {
        return token;
    }

    @Override
    public String toString() {
        if (!acquired) {
            return "busy for " + remainingMillis + " ms";
        }
        return token > 0 ? "acquired with token " + token : "acquired";
    }
}
