package io.hasp.internal.lock;

import io.hasp.Reply;

/**
 * What a kind's release answered for the owner's hold. Each kind's unlock script numbers its answers its
 * own way; {@link #reply} turns them into these outcomes as the reply is decoded.
 */
public enum ReleaseOutcome {

    /** The owner did not hold the lock: never held, or a hold that ended before this release. */
    NOT_HELD,

    /** The owner still holds the lock, with one hold fewer. */
    STILL_HELD,

    /** The owner's last hold ended; other holds keep the lock (other readers, or the owner's own read holds). */
    ENDED,

    /**
     * The owner's last hold ended and the lock was freed (its waiters told); for a kind whose waiting processes
     * take turns, nobody waited in line.
     */
    FREED,

    /**
     * The owner's last hold ended, the lock was freed and the turn went to another process (the releasing process
     * keeps a place in line if it asked for one).
     */
    FREED_TURN_ELSEWHERE,

    /**
     * The owner's last hold ended and the lock was freed while clients that do not take turns listen on its
     * shared channel: the releasing process lets them have their go before its own new acquisitions (a turn of
     * its own comes as a message, like any other process's).
     */
    FREED_FOR_ALL,

    /**
     * The owner's last hold ended, the lock was freed and the turn went to the releasing process itself, without
     * a message: it wakes one of its own waiters.
     */
    FREED_OWN_TURN,

    /** The owner's last hold ended and the lock went straight to the successor named in the call. */
    HANDED_OVER;

    /**
     * Returns whether the owner's hold ended (it no longer holds the lock).
     *
     * @return true for every outcome but {@link #NOT_HELD} and {@link #STILL_HELD}
     */
    public boolean holdEnded() {
        return this != NOT_HELD && this != STILL_HELD;
    }

    /**
     * Returns whether the release freed the lock and gave its turn (or let clients that take no turns have their
     * go): what the releasing process's waiters are then told by the release itself, not by a message.
     *
     * @return true for {@link #FREED_FOR_ALL}, {@link #FREED_OWN_TURN} and {@link #FREED_TURN_ELSEWHERE}
     */
    public boolean turnGiven() {
        return this == FREED_FOR_ALL || this == FREED_OWN_TURN || this == FREED_TURN_ELSEWHERE;
    }

    /**
     * The reply of an unlock script that answers nil (not held), 0 (still held), 1 or 2.
     *
     * @param name the reply's name, for errors
     * @param one what the script's 1 means
     * @param two what the script's 2 means
     * @return the reply decoder; any other answer fails the command
     */
    public static Reply<ReleaseOutcome> reply(String name, ReleaseOutcome one, ReleaseOutcome two) {
        return reply(name, one, two, false);
    }

    /**
     * {@link #reply}, for an unlock script that frees the lock by {@code turns.lua}'s {@code announce_free}: it
     * also answers 3 ({@link #FREED_FOR_ALL}), 4 ({@link #FREED_OWN_TURN}) and 5 ({@link #FREED_TURN_ELSEWHERE}).
     *
     * @param name the reply's name, for errors
     * @param one what the script's 1 means
     * @param two what the script's 2 means
     * @return the reply decoder; any other answer fails the command
     */
    public static Reply<ReleaseOutcome> replyInLine(String name, ReleaseOutcome one, ReleaseOutcome two) {
        return reply(name, one, two, true);
    }

    private static Reply<ReleaseOutcome> reply(String name, ReleaseOutcome one, ReleaseOutcome two, boolean inLine) {
        return new Reply<>(name) {
            @Override
            public ReleaseOutcome integer(long value) {
                if (value == 0) {
                    return STILL_HELD;
                }
                if (value == 1) {
                    return one;
                }
                if (value == 2) {
                    return two;
                }
                if (inLine && value == 3) {
                    return FREED_FOR_ALL;
                }
                if (inLine && value == 4) {
                    return FREED_OWN_TURN;
                }
                if (inLine && value == 5) {
                    return FREED_TURN_ELSEWHERE;
                }
                throw unexpected("integer " + value);
            }

            @Override
            public ReleaseOutcome nullValue() {
                return NOT_HELD;
            }
        };
    }
}
