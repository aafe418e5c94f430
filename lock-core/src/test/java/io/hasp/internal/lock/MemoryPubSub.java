package io.hasp.internal.lock;

import io.hasp.internal.pubsub.MessageListener;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.pubsub.Subscription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Pub/sub in memory, for lock tests without a server: a subscription is confirmed at once (or,
 * after {@link #holdConfirmations}, when the test says so), and {@link #publish} calls every
 * listener of the channel on the calling thread.
 */
final class MemoryPubSub implements PubSub {

    private final Map<String, List<MessageListener>> listeners = new HashMap<>();
    private final List<Runnable> heldConfirmations = new ArrayList<>();
    private boolean holding;

    /** From now on, subscriptions are confirmed only by {@link #confirmHeld}; they take effect at once. */
    synchronized void holdConfirmations() {
        holding = true;
    }

    /** Confirms the subscriptions kept waiting, in order, and stops keeping them waiting. */
    void confirmHeld() {
        List<Runnable> confirmations;
        synchronized (this) {
            holding = false;
            confirmations = new ArrayList<>(heldConfirmations);
            heldConfirmations.clear();
        }
        confirmations.forEach(Runnable::run);
    }

    @Override
    public synchronized CompletableFuture<Subscription> subscribe(String channel, MessageListener listener) {
        PubSub.checkSubscribe(channel, listener);
        listeners.computeIfAbsent(channel, c -> new ArrayList<>()).add(listener);
        Subscription subscription = new Subscription() {
            @Override
            public String channel() {
                return channel;
            }

            @Override
            public CompletableFuture<Void> unsubscribe() {
                synchronized (MemoryPubSub.this) {
                    List<MessageListener> list = listeners.get(channel);
                    if (list != null) {
                        list.remove(listener);
                        if (list.isEmpty()) {
                            listeners.remove(channel);
                        }
                    }
                }
                return CompletableFuture.completedFuture(null);
            }
        };
        if (!holding) {
            return CompletableFuture.completedFuture(subscription);
        }
        CompletableFuture<Subscription> confirmed = new CompletableFuture<>();
        heldConfirmations.add(() -> confirmed.complete(subscription));
        return confirmed;
    }

    /** Delivers {@code message} to the channel's listeners; returns how many there were. */
    int publish(String channel, String message) {
        List<MessageListener> receivers;
        synchronized (this) {
            receivers = new ArrayList<>(listeners.getOrDefault(channel, List.of()));
        }
        receivers.forEach(listener -> listener.onMessage(channel, message));
        return receivers.size();
    }

    /** Number of listeners on {@code channel}. */
    synchronized int listeners(String channel) {
        return listeners.getOrDefault(channel, List.of()).size();
    }

    @Override
    public CompletableFuture<Void> close() {
        return CompletableFuture.completedFuture(null);
    }
}
