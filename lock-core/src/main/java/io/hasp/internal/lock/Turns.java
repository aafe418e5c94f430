package io.hasp.internal.lock;

import io.hasp.Script;
import io.hasp.internal.Futures;

/**
 * The line in which the processes waiting for one lock take turns ({@code turns.lua}): the figures it runs on, and
 * the scripts that open with it. The reentrant and fenced locks' waiters take turns, and so do a read/write lock's
 * writers (lock-rw composes its scripts here).
 *
 * <p>A release of the lock does not wake a waiter in every process that waits: it gives the turn to the process
 * first in line, and tells that process alone, on a channel of its own; the turn keeps the free lock for that
 * process's waiters for {@link #TURN_MILLIS} (clients that do not take turns, Redisson's, still see a free lock,
 * and the release still announces it on the lock's shared channel for them). A waiting process takes a place in
 * line each time one of its waiters finds the lock taken, and keeps it for {@link #PLACE_MILLIS}; so the server's
 * work per hand-off stays flat however many processes wait, and every process is served in its turn.
 */
public final class Turns {

    /** How long a waiting process keeps its place in line without looking at the lock again. */
    public static final long PLACE_MILLIS = 5_000;
    /** How long the free lock is kept for the process whose turn it is. */
    public static final long TURN_MILLIS = 200;

    private Turns() {
    }

    /** {@code turns.lua} followed by the operation's file, as one script named after the operation. */
    static Script compose(String operation) {
        return compose(Turns.class, operation);
    }

    /**
     * {@code turns.lua} followed by {@code operation}, a resource beside {@code anchor}, as one script named after
     * the operation.
     *
     * @param anchor the class whose package holds the operation's file
     * @param operation the file name, for example {@code "write_acquire.lua"}
     * @return the composed script
     */
    public static Script compose(Class<?> anchor, String operation) {
        String turns = Script.fromResource(Turns.class, "turns.lua").text();
        String body = Script.fromResource(anchor, operation).text();
        return Script.of(operation, turns + "\n" + body);
    }
}
