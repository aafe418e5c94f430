package io.hasp.internal.cluster;

import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.Replies;
import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.hasp.internal.connection.NotSentException;
import io.hasp.internal.pubsub.ChannelKind;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RedisCommands} on a Redis Cluster: every keyed command and script call goes to the
 * master of its key's slot. {@code MOVED} records the slot's new master and sends again there;
 * {@code ASK} sends {@code ASKING} and the command to the named node once, without changing the
 * map; {@code TRYAGAIN} and {@code CLUSTERDOWN} are sent again after a growing pause, within the
 * command's retry budget. A command is sent again only after the server refused it with one of
 * those errors, that is, when it did not run, so re-sending never runs it twice.
 *
 * <p>For {@link #execute}, the first argument is taken as the key (true of the commands locks and
 * most applications send); a command without arguments goes to a master. Scripts must keep all
 * their keys in one slot, as hasp's locks do through their {@code {name}} hash tags. Thread-safe.
 */
public final class ClusterCommands implements RedisCommands, ChannelKind.Aware {

    private static final Logger log = LoggerFactory.getLogger(ClusterCommands.class);
    /** How many MOVED or ASK redirects one command (or subscription) follows before it fails. */
    static final int MAX_REDIRECTS = 5;
    /** The shortest pause between two topology reads started by commands for slots without a master. */
    static final Duration UNROUTED_REFRESH_PAUSE = Duration.ofSeconds(1);

    private final ClusterNodes nodes;
    private final List<NodeAddress> seeds;
    private final Timer timer;
    private final long retryBudgetNanos;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicLong refreshes = new AtomicLong();
    private final LostNodeFollower follower;
    /** When a command for a slot without a master last started a refresh ({@link System#nanoTime()}). */
    private final AtomicLong lastUnroutedRefresh = new AtomicLong(System.nanoTime() - UNROUTED_REFRESH_PAUSE.toNanos());
    private volatile SlotMap map;
    private volatile ChannelKind channelKind = ChannelKind.CLASSIC;
    private volatile Runnable topologyListener = () -> { };
    private volatile Timeout periodic;
    private volatile boolean closed;

    /**
     * @param nodes the nodes' connections
     * @param seeds the configured seeds, asked after the known masters when the topology is read again
     * @param map the topology to start from
     * @param timer the client's timer, for pauses between retries and periodic refreshes
     * @param retryBudgetMillis how long TRYAGAIN and CLUSTERDOWN are retried for
     */
    public ClusterCommands(ClusterNodes nodes, List<NodeAddress> seeds, SlotMap map, Timer timer, long retryBudgetMillis) {
        this.nodes = nodes;
        this.seeds = List.copyOf(seeds);
        this.map = map;
        this.timer = timer;
        this.retryBudgetNanos = TimeUnit.MILLISECONDS.toNanos(retryBudgetMillis);
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
        CompletableFuture<SlotMap> read;
        try {
            read = discover(nodes, sources());
        } catch (RuntimeException e) {
            read = CompletableFuture.failedFuture(e);
        }
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

    private void replaceMap(SlotMap fresh) {
        map = fresh;
        try {
            topologyListener.run();
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
    @Override
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

    /**
     * Reads the topology from the first of {@code seeds} that answers: {@code CLUSTER SHARDS},
     * or {@code CLUSTER SLOTS} where the server has no SHARDS (before 7.0).
     *
     * @return completes with the map, or fails naming every seed's failure
     */
    public static CompletableFuture<SlotMap> discover(ClusterNodes nodes, List<NodeAddress> seeds) {
        return discover(nodes, seeds, 0, new ArrayList<>());
    }

    private static CompletableFuture<SlotMap> discover(ClusterNodes nodes, List<NodeAddress> seeds, int index,
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
     * The commands of one node, unrouted: what is sent there runs there or fails with the node's
     * redirection error. For work that must reach a given master, such as a watchdog batch.
     */
    public RedisCommands node(NodeAddress node) {
        return nodes.of(node);
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

    @Override
    public <T> CompletableFuture<T> evalsha(Script script, Reply<T> reply, List<String> keys, Object... args) {
        if (keys == null || keys.isEmpty()) {
            return anyMaster(c -> c.evalsha(script, reply, keys, args));
        }
        int slot = ClusterSlot.of(keys.get(0));
        for (int i = 1; i < keys.size(); i++) {
            if (ClusterSlot.of(keys.get(i)) != slot) {
                throw new IllegalArgumentException("keys: " + keys + " (expected: all in one slot, e.g. sharing a {hash tag})");
            }
        }
        return routed(slot, c -> c.evalsha(script, reply, keys, args));
    }

    @Override
    public <T> CompletableFuture<T> execute(Reply<T> reply, String command, Object... args) {
        if (args.length == 0 || !(args[0] instanceof CharSequence)) {
            return anyMaster(c -> c.execute(reply, command, args));
        }
        return routed(ClusterSlot.of(args[0].toString()), c -> c.execute(reply, command, args));
    }

    @Override
    public CompletableFuture<String> scriptLoad(Script script) {
        List<CompletableFuture<String>> loads = new ArrayList<>();
        for (NodeAddress master : map.masters()) {
            loads.add(nodes.of(master).scriptLoad(script));
        }
        return CompletableFuture.allOf(loads.toArray(new CompletableFuture<?>[0])).thenApply(v -> loads.get(0).join());
    }

    @Override
    public CompletableFuture<Long> publish(String channel, String message) {
        return anyMaster(c -> c.publish(channel, message));
    }

    @Override
    public CompletableFuture<Long> pttl(String key) {
        return routed(ClusterSlot.of(key), c -> c.pttl(key));
    }

    @Override
    public CompletableFuture<String> hget(String key, String field) {
        return routed(ClusterSlot.of(key), c -> c.hget(key, field));
    }

    @Override
    public CompletableFuture<Boolean> hexists(String key, String field) {
        return routed(ClusterSlot.of(key), c -> c.hexists(key, field));
    }

    @Override
    public CompletableFuture<Long> hlen(String key) {
        return routed(ClusterSlot.of(key), c -> c.hlen(key));
    }

    /** Deletes {@code keys}, one DEL per slot; the future is the number deleted in all. */
    @Override
    public CompletableFuture<Long> del(String... keys) {
        if (keys == null || keys.length == 0) {
            throw new IllegalArgumentException("keys: none (expected: at least one key)");
        }
        Map<Integer, List<String>> bySlot = new LinkedHashMap<>();
        for (String key : keys) {
            bySlot.computeIfAbsent(ClusterSlot.of(key), s -> new ArrayList<>()).add(key);
        }
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        for (Map.Entry<Integer, List<String>> slot : bySlot.entrySet()) {
            String[] group = slot.getValue().toArray(new String[0]);
            parts.add(routed(slot.getKey(), c -> c.del(group)));
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (CompletableFuture<Long> part : parts) {
            total = total.thenCombine(part, Long::sum);
        }
        return total;
    }

    @Override
    public CompletableFuture<String> get(String key) {
        return routed(ClusterSlot.of(key), c -> c.get(key));
    }

    @Override
    public CompletableFuture<String> set(String key, String value) {
        return routed(ClusterSlot.of(key), c -> c.set(key, value));
    }

    @Override
    public CompletableFuture<String> ping() {
        return anyMaster(RedisCommands::ping);
    }

    private <T> CompletableFuture<T> anyMaster(Function<RedisCommands, CompletableFuture<T>> send) {
        if (map.masters().isEmpty()) {
            return CompletableFuture.failedFuture(new RedisConnectionException("no master in the known topology", null));
        }
        return send.apply(nodes.of(map.masters().iterator().next()));
    }

    /**
     * A command found its slot without a master (a read in the middle of a failover, say): starts a
     * {@link #refresh}, unless one was started so less than {@link #UNROUTED_REFRESH_PAUSE} ago, since the
     * next read may name the slot's new master.
     */
    private void refreshForUnroutedSlot() {
        long now = System.nanoTime();
        long last = lastUnroutedRefresh.get();
        if (now - last >= UNROUTED_REFRESH_PAUSE.toNanos() && lastUnroutedRefresh.compareAndSet(last, now)) {
            refresh();
        }
    }

    private <T> CompletableFuture<T> routed(int slot, Function<RedisCommands, CompletableFuture<T>> send) {
        Routed<T> routed = new Routed<>(slot, send, System.nanoTime() + retryBudgetNanos);
        routed.send(map.masterOf(slot), /* asking= */ false);
        return routed;
    }

    /** One routed command: where it was sent, how many redirects it followed, when retries stop. */
    private final class Routed<T> extends CompletableFuture<T> {
        private final int slot;
        private final Function<RedisCommands, CompletableFuture<T>> send;
        private final long retryUntilNanos;
        private int redirects;
        private int pauses;
        /** The node of the last send. */
        private NodeAddress target;

        Routed(int slot, Function<RedisCommands, CompletableFuture<T>> send, long retryUntilNanos) {
            this.slot = slot;
            this.send = send;
            this.retryUntilNanos = retryUntilNanos;
        }

        void send(NodeAddress node, boolean asking) {
            if (node == null) {
                // The first send, or a retry after TRYAGAIN or CLUSTERDOWN, found the slot without a master.
                refreshForUnroutedSlot();
                completeExceptionally(new RedisConnectionException("slot " + slot
                        + " has no master in the known topology (" + map + ")", null));
                return;
            }
            target = node;
            RedisCommands commands;
            try {
                commands = nodes.of(node);
            } catch (RuntimeException e) {
                completeExceptionally(e);
                return;
            }
            if (asking) {
                // ASKING and the command go out in this order on the node's one connection.
                commands.execute(Replies.OK, "ASKING");
            }
            send.apply(commands).whenComplete(this::settle);
        }

        private void settle(T value, Throwable failure) {
            if (failure == null) {
                complete(value);
                return;
            }
            Throwable cause = Futures.unwrap(failure);
            if (cause instanceof NotSentException && !closed && System.nanoTime() - retryUntilNanos < 0) {
                // Never written: its node left the topology while it waited. Send it to the slot's master now.
                NodeAddress master = map.masterOf(slot);
                if (master != null && !master.equals(target)) {
                    send(master, false);
                    return;
                }
            }
            if ((cause instanceof RedisConnectionException || cause instanceof RedisTimeoutException)
                    && target.equals(map.masterOf(slot)) && !nodes.isConnected(target)) {
                // The slot's master cannot be reached, perhaps never was by this client: look for its successor.
                // (Not once the map names another: commands still waiting on a dead master fail after it.)
                follower.lost(target);
            }
            if (cause instanceof RedisServerException server) {
                String code = server.code();
                if ((code.equals("MOVED") || code.equals("ASK")) && redirects++ < MAX_REDIRECTS) {
                    NodeAddress redirect = redirectTarget(server.getMessage());
                    if (redirect != null) {
                        if (code.equals("MOVED")) {
                            moved(slot, redirect);
                        }
                        send(redirect, code.equals("ASK"));
                        return;
                    }
                }
                if ((code.equals("TRYAGAIN") || code.equals("CLUSTERDOWN")) && System.nanoTime() - retryUntilNanos < 0) {
                    // A slot in the middle of a migration (a script whose keys are split between the
                    // nodes, or name keys that never exist) answers TRYAGAIN until it is done: start
                    // over from the slot's master after a pause, with a fresh redirect count.
                    redirects = 0;
                    try {
                        timer.newTimeout(t -> send(map.masterOf(slot), false),
                                Backoff.COMMAND_RETRY.delayNanos(pauses++), TimeUnit.NANOSECONDS);
                        return;
                    } catch (RuntimeException timerStopped) {
                        cause.addSuppressed(timerStopped);
                    }
                }
            }
            completeExceptionally(cause);
        }
    }

    /** {@code host:port} of a {@code MOVED <slot> <host>:<port>} or {@code ASK ...} message, or null. */
    static NodeAddress redirectTarget(String message) {
        String[] parts = message.trim().split(" ");
        if (parts.length < 3) {
            return null;
        }
        String endpoint = parts[2];
        int colon = endpoint.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = endpoint.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new NodeAddress(host, Integer.parseInt(endpoint.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
