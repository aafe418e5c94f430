package io.hasp.internal.lock;

/**
 * A short window after this client freed a lock while clients that take no turns listen, in which new local
 * acquisitions let those clients' waiters go first ({@link WaitChannel}). Not thread-safe: its channel's monitor
 * guards it.
 */
final class YieldWindow {

    private long untilNanos;
    private boolean open;

    /** Opens it until {@code untilNanos} ({@code nanoTime}). */
    void openUntil(long untilNanos) {
        this.untilNanos = untilNanos;
        this.open = true;
    }

    /** How many nanoseconds of it are left at {@code nowNanos} (0: closed). */
    long left(long nowNanos) {
        if (!open) {
            return 0;
        }
        long left = untilNanos - nowNanos;
        if (left <= 0) {
            open = false;
            return 0;
        }
        return left;
    }
}
