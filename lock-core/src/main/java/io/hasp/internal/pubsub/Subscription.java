package io.hasp.internal.pubsub;

import java.util.concurrent.CompletableFuture;

/**
 * One listener's registration on a channel. Many registrations share one server subscription;
 * the server is told to unsubscribe when the last one leaves. Thread-safe.
 */
public interface Subscription {

    /** @return the channel */
    String channel();

    /**
     * Removes this registration; idempotent. The listener hears no more messages once the
     * future completes.
     *
     * @return completes (on the pub/sub event loop) once the registration is gone and, if it was
     *     the channel's last, the server confirmed the unsubscription (or the connection is down)
     */
    CompletableFuture<Void> unsubscribe();
}
