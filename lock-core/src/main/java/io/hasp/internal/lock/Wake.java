package io.hasp.internal.lock;

import io.netty.util.Timeout;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One parked wait of an acquisition: woken exactly once, by an unlock message, a local hand-off
 * or its timeout, whichever claims it first; or claimed by a release of this client that hands
 * the lock straight to the waiting {@link Successor} (then it is not run: the release reports to
 * it). Thread-safe.
 */
final class Wake {

    private static final int FREE = 0;
    private static final int CLAIMED = 1;
    private static final int HANDED_OVER = 2;

    private final AtomicInteger state = new AtomicInteger(FREE);
    private final Runnable action;
    /** The waiter that parked, which a release of this client may hand the lock to; or null. */
    final Successor successor;
    private volatile Timeout timeout;

    Wake(Runnable action) {
        this(action, null);
    }

    Wake(Runnable action, Successor successor) {
        this.action = action;
        this.successor = successor;
    }

    /** Takes the right to run; true for exactly one caller. */
    boolean claim() {
        return state.compareAndSet(FREE, CLAIMED);
    }

    /** Takes it for a release of this client that hands the lock to its {@link #successor}; true for one caller. */
    boolean claimForHandOver() {
        return state.compareAndSet(FREE, HANDED_OVER);
    }

    /** Whether a release of this client claimed it to hand the lock over (it then reports to the successor). */
    boolean claimedForHandOver() {
        return state.get() == HANDED_OVER;
    }

    /** Claims it without running it (the wait was abandoned); true when it was still unclaimed. */
    boolean cancel() {
        if (!claim()) {
            return false;
        }
        Timeout t = timeout;
        if (t != null) {
            t.cancel();
        }
        return true;
    }

    /** Whether someone already claimed it. */
    boolean claimed() {
        return state.get() != FREE;
    }

    /** Arms its timeout on {@code context}'s timer: if that claims it first, it leaves {@code channel} and runs. */
    void timeoutAfter(LockContext context, WaitChannel channel, long millis) {
        timeout(context.schedule(() -> {
            if (claim()) {
                channel.unpark(this);
                run();
            }
        }, millis, TimeUnit.MILLISECONDS));
    }

    void timeout(Timeout timeout) {
        this.timeout = timeout;
        if (state.get() != FREE) {
            timeout.cancel();
        }
    }

    /** Runs the action of a wake that the caller has claimed. */
    void run() {
        Timeout t = timeout;
        if (t != null) {
            t.cancel();
        }
        action.run();
    }
}
