package io.hasp.internal.pubsub;

/**
 * Receives the messages of a subscribed channel. Called on the pub/sub connection's event-loop
 * thread, one message at a time in the server's order: never block here. Exceptions thrown by
 * a listener are caught and logged; they never break the connection or other listeners.
 */
@FunctionalInterface
public interface MessageListener {

    /**
     * A message was published on the channel.
     *
     * @param channel the channel
     * @param message the message, decoded as UTF-8
     */
    void onMessage(String channel, String message);

    /**
     * The pub/sub connection was lost and is back: every active channel has been subscribed
     * again (confirmed by the server). Messages published while it was down were missed, so a
     * listener waiting for a state change should re-check that state now.
     *
     * @param channel the channel
     */
    default void onResubscribed(String channel) {
    }
}
