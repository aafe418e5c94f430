package io.hasp.internal.cluster;

import io.hasp.RedisClosedException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.internal.Futures;
import io.hasp.internal.connection.ConnectionListener;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.DefaultPubSub;
import io.hasp.internal.pubsub.MessageListener;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.pubsub.Subscription;
import io.hasp.internal.topology.NodeAddress;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link PubSub} of a client on a Redis Cluster: one {@link DefaultPubSub} connection per
 * node that carries subscriptions, opened when first needed, and each subscription on the node
 * its channel belongs to.
 *
 * <ul>
 *   <li>Sharded channels ({@link ChannelKind#SHARDED}) live on the master of the channel's slot.
 *       A subscription moves when that master changes: after the topology is read again, when a
 *       node refuses it with {@code MOVED}, or when a node unsubscribes it on its own (its slot
 *       left the node).
 *   <li>Classic channels reach every node's subscribers, so all of them share one master's
 *       connection; they move to another master when that one leaves the topology.
 * </ul>
 *
 * <p>After a move the listener hears {@link MessageListener#onResubscribed}, since messages
 * published meanwhile were missed. A move that fails (the node is down) is tried again after each
 * topology change and at least every second. Thread-safe: the routing state is guarded by this
 * object's monitor, and nothing is called while holding it.
 */
public final class ClusterPubSub implements PubSub {

    private static final Logger log = LoggerFactory.getLogger(ClusterPubSub.class);
    private static final long RETRY_MILLIS = 1_000;

    private final ClusterView cluster;
    private final BiFunction<NodeAddress, Consumer<String>, DefaultPubSub> open;
    private final Timer timer;
    private final Map<NodeAddress, DefaultPubSub> nodes = new HashMap<>();   // guarded by this
    private final Set<Routed> routed = new HashSet<>();                        // guarded by this
    private NodeAddress classicNode;                                           // guarded by this
    private boolean retryScheduled;                                            // guarded by this
    private boolean closed;                                                    // guarded by this

    /**
     * @param cluster the client's view of the cluster: the topology, and the kind of channel to use
     * @param open creates (without starting it) the pub/sub connection of a node, for the kind
     *     of channel {@code cluster} uses, given what to call when that node drops a channel
     * @param timer the client's timer
     */
    public ClusterPubSub(ClusterView cluster, BiFunction<NodeAddress, Consumer<String>, DefaultPubSub> open,
            Timer timer) {
        this.cluster = cluster;
        this.open = open;
        this.timer = timer;
    }

    /** Moves every subscription whose node is no longer its channel's; call after a topology change. */
    public void reroute() {
        List<Runnable> moves = new ArrayList<>();
        List<DefaultPubSub> idle = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            for (Routed r : routed) {
                NodeAddress target = route(r.channel);
                if (target != null && !target.equals(r.node)) {
                    moves.add(() -> move(r, target));
                }
            }
            Set<NodeAddress> masters = cluster.map().masters();
            nodes.entrySet().removeIf(node -> {
                boolean unused = !masters.contains(node.getKey())
                        && routed.stream().noneMatch(r -> node.getKey().equals(r.node));
                if (unused) {
                    idle.add(node.getValue());
                }
                return unused;
            });
        }
        moves.forEach(Runnable::run);
        idle.forEach(DefaultPubSub::close);
    }

    @Override
    public CompletableFuture<Subscription> subscribe(String channel, MessageListener listener) {
        PubSub.checkSubscribe(channel, listener);
        Routed r = new Routed(channel, listener);
        NodeAddress target;
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new RedisClosedException("pub/sub: client closed"));
            }
            target = route(channel);
            if (target == null) {
                return CompletableFuture.failedFuture(new RedisConnectionException(
                        "no master for channel " + channel + " in the known topology (" + cluster.map() + ")", null));
            }
            routed.add(r);
        }
        move(r, target);
        return r.subscribed;
    }

    /** Closes every node's pub/sub connection; waiting subscriptions fail with {@link RedisClosedException}. */
    @Override
    public CompletableFuture<Void> close() {
        List<DefaultPubSub> open;
        List<Routed> waiting;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(nodes.values());
            waiting = new ArrayList<>(routed);
            nodes.clear();
            routed.clear();
        }
        RedisClosedException failure = new RedisClosedException("pub/sub: client closed");
        waiting.forEach(r -> r.subscribed.completeExceptionally(failure));
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        open.forEach(node -> closing.add(node.close()));
        return CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0]));
    }

    /** The node that should carry {@code channel} now; null when the topology knows none. Holds the monitor. */
    private NodeAddress route(String channel) {
        SlotMap map = cluster.map();
        if (cluster.channelKind() == ChannelKind.SHARDED) {
            return map.masterOf(ClusterSlot.of(channel));
        }
        if (classicNode == null || !map.masters().contains(classicNode)) {
            classicNode = map.masters().isEmpty() ? null : map.masters().iterator().next();
        }
        return classicNode;
    }

    /**
     * Opens the pub/sub connection of {@code target}; forgotten again if it cannot connect. When it is lost, or cannot
     * be opened, the view looks for the node's successor ({@link ClusterView#unreachable}): a node may carry this
     * client's subscriptions and nothing else of it, and then no command would tell that it died. Holds the monitor.
     */
    private DefaultPubSub open(NodeAddress target) {
        DefaultPubSub node = open.apply(target, channel -> dropped(target, channel));
        nodes.put(target, node);
        node.connection().addListener(new ConnectionListener() {
            @Override
            public void connected(RedisConnection connection, boolean reconnect) {
            }

            @Override
            public void disconnected(RedisConnection connection) {
                boolean inUse;
                synchronized (ClusterPubSub.this) {
                    inUse = !closed && nodes.get(target) == node;   // not one this client closed itself
                }
                if (inUse) {
                    cluster.unreachable(target);   // the search ends at once if this connection comes back
                }
            }
        });
        node.connection().start().whenComplete((ok, failure) -> {
            if (failure != null) {
                synchronized (this) {
                    nodes.remove(target, node);   // the next subscription there connects anew
                }
                node.close();
                // Not under this object's monitor, which a connect that failed at once would still hold here.
                node.connection().eventLoop().execute(() -> cluster.unreachable(target));
            }
        });
        return node;
    }

    /** Whether this client's subscriptions' connection to {@code node} is up now. */
    public synchronized boolean connected(NodeAddress node) {
        DefaultPubSub pubSub = nodes.get(node);
        return pubSub != null && pubSub.connection().isReady();
    }

    /** Subscribes {@code r} on {@code target}, leaving the node it was on. */
    private void move(Routed r, NodeAddress target) {
        CompletableFuture<Subscription> previous;
        CompletableFuture<Subscription> next;
        int generation;
        synchronized (this) {
            if (closed || r.left) {
                return;
            }
            previous = r.inner;
            generation = ++r.generation;
            r.node = target;
            DefaultPubSub known = nodes.get(target);
            DefaultPubSub node = known != null ? known : open(target);
            next = Futures.sent(() -> node.subscribe(r.channel, r));
            r.inner = next;
        }
        leave(previous);
        next.whenComplete((subscription, failure) -> settled(r, generation, target, failure));
    }

    private void settled(Routed r, int generation, NodeAddress target, Throwable failure) {
        boolean current;
        synchronized (this) {
            current = generation == r.generation && !r.left && !closed;
            if (current && failure != null) {
                r.inner = null;
                r.node = null;
            }
        }
        if (!current) {
            return;   // moved again or left meanwhile: the newer attempt (or unsubscribe) settles it
        }
        if (failure == null) {
            r.redirects = 0;
            if (!r.subscribed.complete(r)) {
                try {
                    r.listener.onResubscribed(r.channel);   // moved: messages published meanwhile were missed
                } catch (RuntimeException e) {
                    log.warn("listener of channel {} failed on resubscribe", r.channel, e);
                }
            }
            return;
        }
        Throwable cause = Futures.unwrap(failure);
        if (cause instanceof RedisServerException server && server.code().equals("MOVED")
                && r.redirects++ < ClusterCommands.MAX_REDIRECTS) {
            NodeAddress movedTo = ClusterCommands.redirectTarget(server.getMessage());
            if (movedTo != null) {
                cluster.moved(ClusterSlot.of(r.channel), movedTo);
                move(r, movedTo);
                return;
            }
        }
        if (!r.subscribed.isDone()) {
            synchronized (this) {
                routed.remove(r);
            }
            r.subscribed.completeExceptionally(cause);
            return;
        }
        log.debug("moving the subscription of {} to {} failed, trying again: {}", r.channel, target, cause.toString());
        retryLater();
    }

    /** {@code node} unsubscribed {@code channel} on its own: read the topology and subscribe where it now lives. */
    private void dropped(NodeAddress node, String channel) {
        List<Routed> lost = new ArrayList<>();
        synchronized (this) {
            for (Routed r : routed) {
                if (r.channel.equals(channel) && node.equals(r.node)) {
                    r.node = null;   // reroute() subscribes it again, wherever the channel's slot is now
                    lost.add(r);
                }
            }
        }
        if (!lost.isEmpty()) {
            cluster.refresh().whenComplete((map, e) -> reroute());
        }
    }

    private void retryLater() {
        synchronized (this) {
            if (retryScheduled || closed) {
                return;
            }
            retryScheduled = true;
        }
        try {
            timer.newTimeout(t -> {
                synchronized (this) {
                    retryScheduled = false;
                }
                cluster.refresh().whenComplete((map, e) -> reroute());
            }, RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException timerStopped) {
            // the client is closing
        }
    }

    private void unsubscribe(Routed r, CompletableFuture<Void> done) {
        CompletableFuture<Subscription> inner;
        synchronized (this) {
            if (r.left) {
                r.unsubscribed.whenComplete((v, e) -> done.complete(null));
                return;
            }
            r.left = true;
            r.unsubscribed = done;
            routed.remove(r);
            inner = r.inner;
            r.inner = null;
        }
        if (inner == null) {
            done.complete(null);
            return;
        }
        inner.whenComplete((subscription, failure) -> {
            if (subscription == null) {
                done.complete(null);
                return;
            }
            subscription.unsubscribe().whenComplete((v, e) -> {
                if (e != null) {
                    done.completeExceptionally(e);
                } else {
                    done.complete(null);
                }
            });
        });
    }

    private static void leave(CompletableFuture<Subscription> subscription) {
        if (subscription != null) {
            subscription.thenAccept(s -> s.unsubscribe().exceptionally(e -> null));
        }
    }

    /** One registration, wherever it lives now; it forwards that node's messages to the listener. */
    private final class Routed implements Subscription, MessageListener {
        final String channel;
        final MessageListener listener;
        final CompletableFuture<Subscription> subscribed = new CompletableFuture<>();
        NodeAddress node;                              // guarded by ClusterPubSub.this
        CompletableFuture<Subscription> inner;         // guarded by ClusterPubSub.this
        int generation;                                // guarded by ClusterPubSub.this
        boolean left;                                  // guarded by ClusterPubSub.this
        CompletableFuture<Void> unsubscribed;          // guarded by ClusterPubSub.this
        int redirects;                                 // touched by one settling attempt at a time

        Routed(String channel, MessageListener listener) {
            this.channel = channel;
            this.listener = listener;
        }

        @Override
        public String channel() {
            return channel;
        }

        @Override
        public CompletableFuture<Void> unsubscribe() {
            CompletableFuture<Void> done = new CompletableFuture<>();
            ClusterPubSub.this.unsubscribe(this, done);
            return done;
        }

        @Override
        public void onMessage(String channel, String message) {
            listener.onMessage(channel, message);
        }

        @Override
        public void onResubscribed(String channel) {
            listener.onResubscribed(channel);
        }

        @Override
        public String toString() {
            return "Subscription[" + channel + "]";
        }
    }
}
