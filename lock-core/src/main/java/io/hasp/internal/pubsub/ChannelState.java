package io.hasp.internal.pubsub;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The client's view of one channel: its listeners, and where the server subscription stands.
 * Every SUBSCRIBE/UNSUBSCRIBE written for the channel adds one expected confirmation; when
 * the last expected confirmation arrives the server's state matches the last command sent.
 * Confined to the pub/sub event loop.
 */
final class ChannelState {

    final String channel;
    /** Copy-on-write, so that delivery can iterate while listeners subscribe or leave. */
    List<Registration> listeners = List.of();
    final List<Registration> awaitingConfirmation = new ArrayList<>(1);
    final List<CompletableFuture<Void>> awaitingUnsubscribe = new ArrayList<>(0);
    int pendingConfirmations;
    boolean subscribeSent;       // the last command written was SUBSCRIBE
    boolean confirmed;           // the server confirmed the subscription and nothing is pending
    boolean resubscribing;       // subscribed again after a reconnect, listeners not told yet

    ChannelState(String channel) {
        this.channel = channel;
    }

    void add(Registration registration) {
        List<Registration> copy = new ArrayList<>(listeners.size() + 1);
        copy.addAll(listeners);
        copy.add(registration);
        listeners = copy;
    }

    boolean remove(Registration registration) {
        if (!listeners.contains(registration)) {
            return false;
        }
        List<Registration> copy = new ArrayList<>(listeners);
        copy.remove(registration);
        listeners = copy.isEmpty() ? List.of() : copy;
        awaitingConfirmation.remove(registration);
        return true;
    }

    boolean wanted() {
        return !listeners.isEmpty();
    }
}
