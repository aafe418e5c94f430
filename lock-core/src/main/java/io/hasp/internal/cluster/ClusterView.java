package io.hasp.internal.cluster;

import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.internal.Futures;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This client's view of a Redis Cluster, kept current: the {@link SlotMap} (which master serves each
 * slot), read again after a {@code MOVED}, while a lost node's slots have no reachable master
 * ({@link LostNodeFollower}), for a command whose slot has no master, and periodically; and the kind of
 * channel unlock messages use there. Routing reads it ({@link ClusterCommands}, {@link ClusterPubSub});
 * listeners hear of every change. Thread-safe.
 */
public final class ClusterView {

    private static final Logger log = LoggerFactory.getLogger(ClusterView.class);
    /** The shortest pause between two topology reads started by commands for slots without a master. */
    static final Duration UNROUTED_REFRESH_PAUSE = Duration.ofSeconds(1);

    private final NodeConnections nodes;
    private final List<NodeAddress> seeds;
    private final Timer timer;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicLong refreshes = new AtomicLong();
    private final LostNodeFollower follower;
    /** When a command for a slot without a master last started a refresh ({@link System#nanoTime()}). */
    private final AtomicLong lastUnroutedRefresh = new AtomicLong(System.nanoTime() - UNROUTED_REFRESH_PAUSE.toNanos());
    private volatile SlotMap map;
    private volatile ChannelKind channelKind = ChannelKind.CLASSIC;
    private volatile Runnable topologyListener = () -> { };
    private volatile Runnable mastersMovedListener = () -> { };
    private volatile Timeout periodic;
    private volatile boolean closed;

    /**
     * @param nodes the nodes' connections
     * @param seeds the configured seeds, asked after the known masters when the topology is read again
     * @param map the topology to start from
     * @param timer the client's timer, for periodic refreshes and the lost-node follower
     */
    public ClusterView(NodeConnections nodes, List<NodeAddress> seeds, SlotMap map, Timer timer) {
        this.nodes = nodes;
        this.seeds = List.copyOf(seeds);
        this.map = map;
        this.timer = timer;
        this.follower = new LostNodeFollower(nodes, () -> this.map, this::refresh,
                (task, delayNanos) -> timer.newTimeout(t -> task.run(), delayNanos, TimeUnit.NANOSECONDS),
                System::nanoTime);
        nodes.onNodeLost(node -> {
            follower.lost(node);
            nodes.retireAllBut(this.map.masters());   // a lost node that is no master any more: no reconnects
        });
    }

    /**
     * Reads the topology again, from the known masters and the seeds (those connected now first, those
     * known to be down last); at most one refresh runs at a time (a call during one joins nothing and
     * returns the current map). Called after a {@code MOVED}, while a lost node's slots have no reachable
     * master ({@link LostNodeFollower}), for a command whose slot has no master, and periodically.
     *
     * @return completes with the map in use afterwards; never fails (a failed refresh keeps the map)
     */
    public CompletableFuture<SlotMap> refresh() {
        if (closed || !refreshing.compareAndSet(false, true)) {
            return CompletableFuture.completedFuture(map);
        }
        CompletableFuture<SlotMap> read = Futures.sent(() -> discover(nodes, sources()));
        return read.handle((fresh, failure) -> {
            refreshing.set(false);
            if (fresh != null) {
                refreshes.incrementAndGet();
                replaceMap(fresh);
            }
            return map;
        });
    }

    /**
     * The known masters and the seeds, those connected now first, then those never connected to, then those
     * known to be down: asking a dead master first would wait out a command timeout.
     */
    private List<NodeAddress> sources() {
        Set<NodeAddress> all = new LinkedHashSet<>(map.masters());
        all.addAll(seeds);
        List<NodeAddress> connected = new ArrayList<>();
        List<NodeAddress> unknown = new ArrayList<>();
        List<NodeAddress> down = new ArrayList<>();
        for (NodeAddress node : all) {
            if (nodes.isConnected(node)) {
                connected.add(node);
            } else if (nodes.isDown(node)) {
                down.add(node);
            } else {
                unknown.add(node);
            }
        }
        connected.addAll(unknown);
        connected.addAll(down);
        return connected;
    }

    /** Runs {@code listener} (on whichever thread changed it; it must not block) after every change of the map. */
    public void onTopologyChange(Runnable listener) {
        this.topologyListener = listener;
    }

    /**
     * Runs {@code listener} (on whichever thread changed it; it must not block) after a change of the map
     * that gives some slot another master ({@link SlotMap#movedMastersSince}).
     */
    public void onMastersMoved(Runnable listener) {
        this.mastersMovedListener = listener;
    }

    private void replaceMap(SlotMap fresh) {
        SlotMap before = map;
        map = fresh;
        try {
            topologyListener.run();
            if (fresh.movedMastersSince(before)) {
                mastersMovedListener.run();
            }
        } catch (RuntimeException e) {
            log.warn("cluster topology listener failed", e);
        }
        nodes.retireAllBut(fresh.masters());
    }

    /**
     * A node answered {@code MOVED <slot> <target>}: records {@code target} as the slot's master
     * and reads the whole topology again, since other slots may have moved with it.
     */
    public void moved(int slot, NodeAddress target) {
        replaceMap(map.withMaster(slot, target));
        refresh();
    }

    /**
     * Asks a master whether it has sharded channels ({@code PUBSUB SHARDNUMSUB}, Redis 7.0+), as
     * Redisson 4.x does at startup, and uses them for unlock messages when it has: then hasp and
     * Redisson clients on one cluster publish and subscribe alike.
     *
     * @return completes with the kind chosen; fails when no master answers at all
     */
    public CompletableFuture<ChannelKind> chooseChannelKind() {
        if (map.masters().isEmpty()) {
            return CompletableFuture.failedFuture(new RedisConnectionException("no master in the known topology", null));
        }
        NodeAddress master = map.masters().iterator().next();
        return nodes.of(master).execute(Replies.VALUE, "PUBSUB", "SHARDNUMSUB", "0")
                .handle((reply, failure) -> {
                    if (failure == null) {
                        return ChannelKind.SHARDED;
                    }
                    Throwable cause = Futures.unwrap(failure);
                    if (cause instanceof RedisServerException) {
                        return ChannelKind.CLASSIC;   // before 7.0: ERR unknown subcommand
                    }
                    throw cause instanceof RuntimeException r ? r : new RedisConnectionException(
                            "PUBSUB SHARDNUMSUB on " + master + ": " + cause, cause);
                })
                .thenApply(kind -> {
                    channelKind = kind;
                    return kind;
                });
    }

    /** The kind of channel unlock messages use on this cluster; {@link ChannelKind#CLASSIC} until chosen. */
    public ChannelKind channelKind() {
        return channelKind;
    }

    /** How many refreshes replaced the map; for monitoring and tests. */
    public long refreshes() {
        return refreshes.get();
    }

    /** Refreshes the topology every {@code periodMillis} until {@link #close()}. */
    public void refreshEvery(long periodMillis) {
        if (closed) {
            return;
        }
        follower.limit(Duration.ofMillis(periodMillis));
        try {
            periodic = timer.newTimeout(t -> refresh().whenComplete((m, e) -> refreshEvery(periodMillis)),
                    periodMillis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException timerStopped) {
            // the client is closing
        }
    }

    /** Stops the periodic refresh. */
    public void close() {
        closed = true;
        follower.close();
        Timeout t = periodic;
        if (t != null) {
            t.cancel();
        }
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Counts a node as reachable, in the search for a lost node's successor, also while {@code connected} says so:
     * for connections other than the commands' (the subscriptions').
     */
    public void alsoReachable(Predicate<NodeAddress> connected) {
        follower.alsoReachable(connected);
    }

    /**
     * The slot's master {@code node} cannot be reached, perhaps never was by this client: look for its
     * successor ({@link LostNodeFollower}).
     */
    void unreachable(NodeAddress node) {
        follower.lost(node);
    }

    /**
     * Reads the topology from the first of {@code seeds} that answers: {@code CLUSTER SHARDS},
     * or {@code CLUSTER SLOTS} where the server has no SHARDS (before 7.0).
     *
     * @return completes with the map, or fails naming every seed's failure
     */
    public static CompletableFuture<SlotMap> discover(NodeConnections nodes, List<NodeAddress> seeds) {
        return discover(nodes, seeds, 0, new ArrayList<>());
    }

    private static CompletableFuture<SlotMap> discover(NodeConnections nodes, List<NodeAddress> seeds, int index,
            List<String> failures) {
        if (index == seeds.size()) {
            return CompletableFuture.failedFuture(new RedisConnectionException(
                    "no cluster topology from any seed: " + String.join("; ", failures), null));
        }
        NodeAddress seed = seeds.get(index);
        RedisCommands commands = nodes.of(seed);
        return commands.execute(Replies.VALUE, "CLUSTER", "SHARDS")
                .thenApply(reply -> TopologyReplies.fromShards(reply, seed.host()))
                .exceptionallyCompose(failure -> Futures.unwrap(failure) instanceof RedisServerException server
                        && server.code().equals("ERR")
                        ? commands.execute(Replies.VALUE, "CLUSTER", "SLOTS")
                                .thenApply(reply -> TopologyReplies.fromSlots(reply, seed.host()))
                        : CompletableFuture.failedFuture(failure))
                .thenCompose(found -> found.coveredSlots() == 0
                        ? CompletableFuture.failedFuture(new RedisConnectionException(seed
                                + " serves no slot: is it running in cluster mode with slots assigned?", null))
                        : CompletableFuture.completedFuture(found))
                .exceptionallyCompose(failure -> {
                    failures.add(seed + ": " + Futures.unwrap(failure).getMessage());
                    return discover(nodes, seeds, index + 1, failures);
                });
    }

    /**
     * Whether a command on {@code key} has nowhere to go now: the topology names no master for its slot,
     * or this client's connection to that master is lost (a snapshot; a node not connected to yet is not down).
     */
    public boolean knownDown(String key) {
        NodeAddress master = map.masterOf(ClusterSlot.of(key));
        return master == null || nodes.isDown(master);
    }

    /** The current topology. */
    public SlotMap map() {
        return map;
    }

    /** Replaces the topology (a discovery or refresh). */
    public void update(SlotMap topology) {
        replaceMap(topology);
    }

    /**
     * A command found its slot without a master (a read in the middle of a failover, say): starts a
     * {@link #refresh}, unless one was started so less than {@link #UNROUTED_REFRESH_PAUSE} ago, since the
     * next read may name the slot's new master.
     */
    void refreshForUnroutedSlot() {
        long now = System.nanoTime();
        long last = lastUnroutedRefresh.get();
        if (now - last >= UNROUTED_REFRESH_PAUSE.toNanos() && lastUnroutedRefresh.compareAndSet(last, now)) {
            refresh();
        }
    }

}
