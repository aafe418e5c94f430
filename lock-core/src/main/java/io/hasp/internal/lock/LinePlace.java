package io.hasp.internal.lock;

import java.util.concurrent.TimeUnit;

/**
 * Where this client's process stands in the line of one lock whose waiters take turns ({@link Turns}), as its
 * {@link WaitChannel} knows it: whether a release of its kept it a place that no turn has ended yet, and whether
 * its acquisitions come back after its releases (then the next release keeps a place, and an acquisition that
 * comes back waits for the turn instead of trying first). Thread-safe.
 */
final class LinePlace {

    /** How long a place kept by a release is counted on: well within the place lease it renews. */
    private static final long TRUSTED_NANOS = TimeUnit.MILLISECONDS.toNanos(Turns.PLACE_MILLIS / 2);

    private boolean kept;           // guarded by this
    private long keptAtNanos;       // guarded by this
    private boolean comesBack;      // guarded by this
    private long turns;             // guarded by this; turns (and lost messages) so far

    /**
     * An acquisition of this process comes (back) while the channel lives: how long it may park before its first
     * try, because a release kept this process a place and the turn will come; 0 when it must try.
     */
    synchronized long arrived(long nowNanos) {
        comesBack = true;
        return kept && nowNanos - keptAtNanos < TRUSTED_NANOS ? Turns.PLACE_MILLIS / 3 : 0;
    }

    /** What a release asks for this process's place: 2 when {@code waiting} here go on waiting, 1 when they come back. */
    synchronized int stays(int waiting) {
        return waiting > 0 ? 2 : comesBack ? 1 : 0;
    }

    /** How many turns came so far: a release notes it when sent, for {@link #keptBy}. */
    synchronized long turns() {
        return turns;
    }

    /**
     * A release sent when {@code turnsAtSend} turns had come kept this process a place in line; unless a turn came
     * since (its answer may come after the next turn's message), which used the place up.
     */
    synchronized void keptBy(long nowNanos, long turnsAtSend) {
        if (turns == turnsAtSend) {
            kept = true;
            keptAtNanos = nowNanos;
        }
    }

    /** The turn came (or messages may have been lost): the place is used up. */
    synchronized void ended() {
        kept = false;
        turns++;
    }

    /** The turn came and nobody here took it: acquisitions here do not come back, for now. */
    synchronized void unused() {
        ended();
        comesBack = false;
    }
}
