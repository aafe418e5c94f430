package io.hasp.lock.rw;

import io.netty.util.Timeout;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One parked wait of an acquisition: run exactly once, by a release message or its timeout,
 * whichever claims it first. Thread-safe.
 */
final class RwWake {

    private final AtomicBoolean claimed = new AtomicBoolean();
    private final Runnable action;
    private volatile Timeout timeout;

    RwWake(Runnable action) {
        this.action = action;
    }

    /** Takes the right to run; true for exactly one caller. */
    boolean claim() {
        return claimed.compareAndSet(false, true);
    }

    /** Claims it without running it (the wait was abandoned). */
    void cancel() {
        if (claim()) {
            Timeout t = timeout;
            if (t != null) {
                t.cancel();
            }
        }
    }

    void timeout(Timeout timeout) {
        this.timeout = timeout;
        if (claimed.get()) {
            timeout.cancel();
        }
    }

    /** Runs the action of a wake the caller has claimed. */
    void run() {
        Timeout t = timeout;
        if (t != null) {
            t.cancel();
        }
        action.run();
    }
}
