package io.hasp.internal.pubsub;

import java.util.concurrent.CompletableFuture;

/**
 * Channel subscriptions of a client, carried by a dedicated connection. Thread-safe.
 *
 * <p>Listeners of a channel are reference-counted: the first one subscribes on the server, the
 * last one to leave unsubscribes. There is no cap on the number of channels. After a reconnect
 * every active channel is subscribed again, and only then are the listeners told
 * ({@link MessageListener#onResubscribed}). Futures complete on the pub/sub event loop.
 */
public interface PubSub {

    /**
     * Adds a listener to a channel.
     *
     * @param channel the channel, not empty
     * @param listener the listener; the same instance may be added several times (each is a
     *     separate registration)
     * @return completes when the server has confirmed the subscription (at once if the channel
     *     already was subscribed); fails with {@code RedisTimeoutException} after the command
     *     timeout (the registration is then removed) or {@code RedisClosedException}
     */
    CompletableFuture<Subscription> subscribe(String channel, MessageListener listener);

    /**
     * The argument checks of {@link #subscribe}, shared by the implementations.
     *
     * @throws IllegalArgumentException when {@code channel} is null or empty, or {@code listener} null
     */
    static void checkSubscribe(String channel, MessageListener listener) {
        if (channel == null || channel.isEmpty()) {
            throw new IllegalArgumentException("channel: " + (channel == null ? "null" : "empty") + " (expected: a channel name)");
        }
        if (listener == null) {
            throw new IllegalArgumentException("listener: null (expected: a MessageListener)");
        }
    }

    /**
     * Closes the pub/sub connections; waiting subscriptions fail with
     * {@code RedisClosedException}.
     *
     * @return completes when the connections are closed
     */
    CompletableFuture<Void> close();
}
