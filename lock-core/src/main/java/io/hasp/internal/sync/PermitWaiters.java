package io.hasp.internal.sync;

import io.hasp.HaspListener;
import io.hasp.RedisClosedException;
import io.hasp.internal.Futures;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.pubsub.Subscription;
import io.hasp.internal.topology.Topology;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The synchronizer waiters of one client, one {@link PermitChannel} per semaphore or latch, each subscribed while
 * anyone here waits for it. A semaphore's channel also subscribes to this client's own channel in the semaphore's
 * line ({@link WakeLine}), together with the shared one. Thread-safe.
 */
public final class PermitWaiters {

    private static final Logger log = LoggerFactory.getLogger(PermitWaiters.class);

    private final Topology topology;
    private final String clientId;
    private final ConcurrentHashMap<String, PermitChannel> channels = new ConcurrentHashMap<>();
    /** The waits of this client that have not ended, so that closing the client ends them. */
    private final Set<SyncWait> waits = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final HaspListener listener;   // null: none

    /**
     * The waiters of client {@code clientId}, whose subscriptions go through {@code topology}'s pub/sub, whose waits
     * {@code listener} hears of ({@link SyncEvents}; null: none).
     */
    public PermitWaiters(Topology topology, String clientId, HaspListener listener) {
        this.topology = topology;
        this.clientId = clientId;
        this.listener = listener;
    }

    /**
     * The process this client's semaphore waiters stand in line for (its id), or "" where a publish does not count a
     * channel's listeners ({@link Topology#publishCountsListeners}: a cluster's classic channels), and releases are
     * announced on the shared channel alone.
     */
    String process() {
        return topology.publishCountsListeners() ? clientId : "";
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
        return join(channelName, wakesAll, null);
    }

    /**
     * Joins as above; a channel created by this join also listens on {@code line}'s channel (null: none). A channel
     * that exists keeps what it listens on.
     */
    CompletableFuture<PermitChannel> join(String channelName, boolean wakesAll, WakeLine line) {
        for (;;) {
            PermitChannel channel = channels.get(channelName);
            boolean created = false;
            if (channel == null) {
                PermitChannel fresh = new PermitChannel(channelName, wakesAll, line);
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
        PubSub pubSub = topology.pubSub();
        CompletableFuture<Subscription> shared = Futures.sent(() -> pubSub.subscribe(channel.channel, channel));
        // Both at once (one command where they can): a wait joins after one round trip. Without the own channel the
        // waiters here still hear every release that does not mark its announcement, and look again every 3 s.
        CompletableFuture<Subscription> own = channel.line == null ? CompletableFuture.completedFuture(null)
                : Futures.sent(() -> pubSub.subscribe(channel.line.channel(), channel.lineListener()))
                        .exceptionally(error -> {
                            log.debug("{}: no subscription of this client's own channel in line: {}",
                                    channel.channel, error.toString());
                            return null;
                        });
        shared.whenComplete((subscription, error) -> own.whenComplete((inLine, ignored) -> {
            if (error == null) {
                subscribed(channel, subscription, inLine);
                return;
            }
            if (inLine != null) {
                inLine.unsubscribe();
            }
            channel.closeFailed();
            channels.remove(channel.channel, channel);
            channel.ready.completeExceptionally(error);
        }));
    }

    private static void subscribed(PermitChannel channel, Subscription shared, Subscription own) {
        if (!channel.subscribed(shared, own)) {
            unsubscribe(shared, own);
        }
        channel.ready.complete(channel);
    }

    /** Ends {@code own} and {@code shared} (each null: none). */
    private static void unsubscribe(Subscription shared, Subscription own) {
        if (own != null) {
            own.unsubscribe();
        }
        if (shared != null) {
            shared.unsubscribe();
        }
    }

    /** Leaves {@code channel}; the last waiter to leave ends its subscriptions. */
    void leave(PermitChannel channel) {
        if (channel.leave()) {
            channels.remove(channel.channel, channel);
            Subscription own = channel.takeLineSubscription();
            unsubscribe(channel.takeSubscription(), own);
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
