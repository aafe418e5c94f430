package io.hasp.internal.pubsub;

import java.util.concurrent.CompletableFuture;

/** One listener on one channel; the {@link Subscription} handed to the application. */
final class Registration implements Subscription {

    final String channel;
    final MessageListener listener;
    final CompletableFuture<Subscription> subscribed = new CompletableFuture<>();
    private final DefaultPubSub owner;
    private CompletableFuture<Void> unsubscribed;   // guarded by the pub/sub event loop

    Registration(DefaultPubSub owner, String channel, MessageListener listener) {
        this.owner = owner;
        this.channel = channel;
        this.listener = listener;
    }

    @Override
    public String channel() {
        return channel;
    }

    @Override
    public CompletableFuture<Void> unsubscribe() {
        return owner.unsubscribe(this);
    }

    /** Event loop: the future of the first {@link #unsubscribe()}, created on first use. */
    CompletableFuture<Void> unsubscribed() {
        if (unsubscribed == null) {
            unsubscribed = new CompletableFuture<>();
        }
        return unsubscribed;
    }

    /** @return whether unsubscribe was called */
    boolean leaving() {
        return unsubscribed != null;
    }

    @Override
    public String toString() {
        return "Subscription[" + channel + "]";
    }
}
