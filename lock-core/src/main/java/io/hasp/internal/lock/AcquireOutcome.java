package io.hasp.internal.lock;

import io.hasp.Reply;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * What a kind's acquire answered: the owner holds the lock now ({@link #ACQUIRED}, or
 * {@link #acquired(long)} with the acquisition's fencing token), another holder has it and the
 * lock expires in {@link #remainingMillis()} (the bound of the next wait), or the owner asked to re-enter
 * a hold that Redis no longer has ({@link #LOST}). Immutable; decoded straight from the script's reply by
 * {@link #REPLY} or {@link #FENCED_REPLY}, with no stage after it.
 */
public final class AcquireOutcome {

    /** The owner holds the lock (no token: the kind issues none). */
    public static final AcquireOutcome ACQUIRED = new AcquireOutcome(true, 0, 0, false);

    /**
     * A re-entry (a target count above 1) found no hold of the owner in Redis: the hold this client
     * counts on ended unnoticed (deleted, expired, lost in a failover). Nothing was written; granting a
     * fresh hold would let the owner's inner unlock free a lock its outer code still believes held.
     * The scripts answer it with the status reply {@code LOST}.
     */
    public static final AcquireOutcome LOST = new AcquireOutcome(false, 0, 0, false);

    /**
     * The acquire scripts' reply: nil when acquired, {@code LOST} (a status) for {@link #LOST}, else the
     * holder's remaining time in milliseconds (how long to park).
     */
    public static final Reply<AcquireOutcome> REPLY = new Reply<>("ACQUIRE_OUTCOME") {
        @Override
        public AcquireOutcome integer(long value) {
            return busy(value);
        }

        @Override
        public AcquireOutcome simpleString(ByteBuf content) {
            if (isLost(content)) {
                return LOST;
            }
            throw unexpected("simple string");
        }

        @Override
        public AcquireOutcome nullValue() {
            return ACQUIRED;
        }
    };

    /**
     * The reply of an acquire script whose waiting processes take turns ({@code acquire.lua}): as {@link #REPLY},
     * except that an integer below -1 is {@code -2 - park} when the caller's process stands in line for its turn
     * ({@link #inLine}).
     */
    public static final Reply<AcquireOutcome> IN_LINE_REPLY = new Reply<>("IN_LINE_ACQUIRE_OUTCOME") {
        @Override
        public AcquireOutcome integer(long value) {
            return value < -1 ? inLine(-2 - value) : busy(value);
        }

        @Override
        public AcquireOutcome simpleString(ByteBuf content) {
            return REPLY.simpleString(content);
        }

        @Override
        public AcquireOutcome nullValue() {
            return ACQUIRED;
        }
    };

    /**
     * The fenced acquire script's reply: the token as a bulk string when acquired, {@code LOST} (a
     * status) for {@link #LOST}, else how long to park as an integer, as in {@link #IN_LINE_REPLY}.
     */
    public static final Reply<AcquireOutcome> FENCED_REPLY = new Reply<>("FENCED_ACQUIRE_OUTCOME") {
        @Override
        public AcquireOutcome integer(long value) {
            return value < -1 ? inLine(-2 - value) : busy(value);
        }

        @Override
        public AcquireOutcome simpleString(ByteBuf content) {
            if (isLost(content)) {
                return LOST;
            }
            throw unexpected("simple string");
        }

        @Override
        public AcquireOutcome bulkString(ByteBuf content) {
            return acquired(Long.parseLong(content.toString(StandardCharsets.US_ASCII)));
        }
    };

    private final boolean acquired;
    private final long remainingMillis;
    private final long token;
    private final boolean inLine;

    private AcquireOutcome(boolean acquired, long remainingMillis, long token, boolean inLine) {
        this.acquired = acquired;
        this.remainingMillis = remainingMillis;
        this.token = token;
        this.inLine = inLine;
    }

    /**
     * The owner holds the lock, and this acquisition's fencing token is {@code token}.
     *
     * @param token the token, greater than 0
     * @return the outcome
     */
    public static AcquireOutcome acquired(long token) {
        return new AcquireOutcome(true, 0, token, false);
    }

    /**
     * Another holder has the lock.
     *
     * @param remainingMillis the lock's remaining time to live in milliseconds, -1 when it has no expiry
     * @return the outcome
     */
    public static AcquireOutcome busy(long remainingMillis) {
        return new AcquireOutcome(false, remainingMillis, 0, false);
    }

    /**
     * The lock is taken by a holder that takes turns, or kept for another process's turn; the caller's process
     * stands in line, and hears on its turn channel when its turn comes (it need not listen on the lock's
     * shared channel).
     *
     * @param parkMillis how long to park before looking again, at least 1
     * @return the outcome
     */
    public static AcquireOutcome inLine(long parkMillis) {
        return new AcquireOutcome(false, parkMillis, 0, true);
    }

    private static boolean isLost(ByteBuf status) {
        return "LOST".equals(status.toString(StandardCharsets.US_ASCII));
    }

    /** Whether the owner holds the lock. */
    public boolean acquired() {
        return acquired;
    }

    /** Whether a re-entry found the owner's hold gone from Redis ({@link #LOST}). */
    public boolean lost() {
        return this == LOST;
    }

    /** When busy: the lock's remaining time to live in milliseconds (-1: no expiry); 0 when acquired. */
    public long remainingMillis() {
        return remainingMillis;
    }

    /** Whether the caller's process waits for its turn in the lock's line ({@link #inLine(long)}). */
    public boolean inLine() {
        return inLine;
    }

    /** When acquired by a kind that issues fencing tokens: the acquisition's token; else 0. */
    public long token() {
        return token;
    }

    @Override
    public String toString() {
        if (this == LOST) {
            return "lost: no hold of the owner to re-enter";
        }
        if (!acquired) {
            return (inLine ? "in line, parking " : "busy for ") + remainingMillis + " ms";
        }
        return token > 0 ? "acquired with token " + token : "acquired";
    }
}
