package io.hasp.internal.lock;

import io.hasp.internal.pubsub.Subscription;
import java.util.concurrent.CompletableFuture;

/**
 * A lock's shared unlock channel, as heard by the waiters of a {@link WaitChannel} whose own subscription is this
 * client's turn channel: asked for by the first waiter that needs it (a holder that takes no turns announces its
 * releases only there), kept until the channel closes. Subscribing is {@link LockWaiters#listenShared}'s; this is
 * its record. Thread-safe.
 */
final class SharedListening {

    private CompletableFuture<WaitChannel> ready;  // guarded by this; null until a waiter asks
    private Subscription subscription;             // guarded by this
    private boolean closed;                        // guarded by this

    /**
     * Records {@code fresh} as the subscription to come, unless one was asked for already; returns the one in
     * force (the caller subscribes when that is {@code fresh}).
     */
    synchronized CompletableFuture<WaitChannel> offer(CompletableFuture<WaitChannel> fresh) {
        if (ready == null) {
            ready = fresh;
        }
        return ready;
    }

    /** Subscribing failed: the next waiter that needs the shared channel asks again. */
    synchronized void failed(CompletableFuture<WaitChannel> failed) {
        if (ready == failed) {
            ready = null;
        }
    }

    /** The subscription is confirmed; false when the channel closed meanwhile (the caller unsubscribes it). */
    synchronized boolean subscribed(Subscription confirmed) {
        if (closed) {
            return false;
        }
        subscription = confirmed;
        return true;
    }

    /** Whether the shared channel is heard. */
    synchronized boolean listening() {
        return ready != null && ready.isDone() && !ready.isCompletedExceptionally() && !closed;
    }

    /** The channel closed: returns the subscription to unsubscribe, or null (one still on its way is refused). */
    synchronized Subscription close() {
        closed = true;
        Subscription last = subscription;
        subscription = null;
        return last;
    }
}
