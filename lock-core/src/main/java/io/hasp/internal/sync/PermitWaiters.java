package io.hasp.internal.sync;

import io.hasp.HaspListener;
import io.hasp.RedisClosedException;
import io.hasp.internal.Futures;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.pubsub.Subscription;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The synchronizer waiters of one client, one {@link PermitChannel} per semaphore or latch, each subscribed while
 * anyone here waits for it. Thread-safe.
 */
public final class PermitWaiters {

    private final PubSub pubSub;
    private final ConcurrentHashMap<String, PermitChannel> channels = new ConcurrentHashMap<>();
    /** The waits of this client that have not ended, so that closing the client ends them. */
    private final Set<SyncWait> waits = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final HaspListener listener;   // null: none

    /** The waiters of a client whose subscriptions go through {@code pubSub}, without a listener. */
    public PermitWaiters(PubSub pubSub) {
        this(pubSub, null);
    }

    /**
     * The waiters of a client whose subscriptions go through {@code pubSub}, whose waits {@code listener} hears of
     * ({@link SyncEvents}; null: none).
     */
    public PermitWaiters(PubSub pubSub, HaspListener listener) {
        this.pubSub = pubSub;
        this.listener = listener;
    }

    /** The client's listener, or null. */
    HaspListener listener() {
        return listener;
    }

    /**
     * Joins the waiters of channel {@code channelName} ({@code wakesAll}: every message there wakes every waiter; else
     * a message says how many to wake); the future completes with the channel once its
     * subscription is confirmed (the caller tries again only then: no release is missed), or fails when subscribing
     * failed. Every successful join is followed by one {@link #leave}.
     */
    CompletableFuture<PermitChannel> join(String channelName, boolean wakesAll) {
        for (;;) {
            PermitChannel channel = channels.get(channelName);
            boolean created = false;
            if (channel == null) {
                PermitChannel fresh = new PermitChannel(channelName, wakesAll);
                channel = channels.putIfAbsent(channelName, fresh);
                if (channel == null) {
                    channel = fresh;
                    created = true;
                }
            }
            if (!channel.join()) {
                channels.remove(channelName, channel);
                continue;
            }
            if (created) {
                subscribe(channel);
            }
            return channel.ready;
        }
    }

    private void subscribe(PermitChannel channel) {
        Futures.sent(() -> pubSub.subscribe(channel.channel, channel)).whenComplete((subscription, error) -> {
            if (error != null) {
                channel.closeFailed();
                channels.remove(channel.channel, channel);
                channel.ready.completeExceptionally(error);
            } else if (!channel.subscribed(subscription)) {
                subscription.unsubscribe();
                channel.ready.complete(channel);
            } else {
                channel.ready.complete(channel);
            }
        });
    }

    /** Leaves {@code channel}; the last waiter to leave ends its subscription. */
    void leave(PermitChannel channel) {
        if (channel.leave()) {
            channels.remove(channel.channel, channel);
            Subscription ending = channel.takeSubscription();
            if (ending != null) {
                ending.unsubscribe();
            }
        }
    }

    /** Records a wait that starts; false when the client is closed (the wait then fails at once). */
    boolean started(SyncWait wait) {
        waits.add(wait);
        if (closed) {
            waits.remove(wait);
            return false;
        }
        return true;
    }

    /** A wait ended. */
    void ended(SyncWait wait) {
        waits.remove(wait);
    }

    /**
     * The client is closing: every wait that has not ended fails with {@link RedisClosedException} (its timers and
     * its subscription go with the client), and waits started from now on fail at once.
     */
    public void close() {
        closed = true;
        for (SyncWait wait : waits) {
            wait.clientClosed();
        }
    }

    /** The channels with waiters here, for tests and diagnostics. */
    int channels() {
        return channels.size();
    }
}
