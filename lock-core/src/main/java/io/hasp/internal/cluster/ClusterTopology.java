package io.hasp.internal.cluster;

import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.RedisCommands;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.connection.Transport;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.DefaultPubSub;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import io.hasp.internal.topology.Topology;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

/**
 * A Redis Cluster ({@code redis-cluster://}): one command connection per master ({@link NodeConnections}),
 * its view of the slots, kept current ({@link ClusterView}), commands routed by slot ({@link ClusterCommands}), unlock messages on sharded channels where the
 * cluster has them (7.0+, as Redisson 4.x chooses) with a pub/sub connection on each master where
 * waiters listen ({@link ClusterPubSub}), and watchdog batches sent one call per master
 * ({@link ClusterBatches}). Starting reads the topology from the seeds, chooses the channel kind and
 * then refreshes the topology periodically.
 */
public final class ClusterTopology implements Topology {

    private final HaspConfig config;
    private final NodeConnections nodes;
    private final ClusterView view;
    private final ClusterCommands commands;
    private final ClusterPubSub pubSub;
    private final ClusterBatches batches;
    private final Timer timer;
    private final ConcurrentMap<ReplicaAcks, RedisCommands> confirmed = new ConcurrentHashMap<>();

    /**
     * @param config the client's configuration: its seeds and settings
     * @param transport the client's event loops
     * @param timer the client's timer
     */
    public ClusterTopology(HaspConfig config, Transport transport, Timer timer) {
        this.config = config;
        this.timer = timer;
        long timeoutMillis = config.commandTimeout().toMillis();
        this.nodes = new NodeConnections(config, transport, timer);
        this.view = new ClusterView(nodes, seeds(config), SlotMap.empty(), timer);
        this.commands = new ClusterCommands(nodes, view, timer, 2 * timeoutMillis);
        // Each node's subscriptions have a connection of their own.
        this.pubSub = new ClusterPubSub(view, (node, dropped) -> {
            var nodeConnector = nodes.connector(node);
            EventLoop loop = (EventLoop) transport.group().next();
            return new DefaultPubSub(push -> new RedisConnection("pubsub", nodeConnector, loop, timer, push),
                    timer, timeoutMillis, view.channelKind(), dropped);
        }, timer);
        view.onTopologyChange(pubSub::reroute);
        view.alsoReachable(pubSub::connected);
        this.batches = new ClusterBatches(view, commands);
    }

    private static List<NodeAddress> seeds(HaspConfig config) {
        List<NodeAddress> seeds = new ArrayList<>();
        for (InetSocketAddress seed : config.clusterSeeds()) {
            seeds.add(new NodeAddress(seed.getHostString(), seed.getPort()));
        }
        return seeds;
    }

    /** This client's view of the cluster (its slot map, kept current); for tests and diagnostics. */
    public ClusterView view() {
        return view;
    }

    @Override
    public RedisCommands commands() {
        return commands;
    }

    @Override
    public PubSub pubSub() {
        return pubSub;
    }

    /** Sharded channels on a 7.0+ cluster, classic ones before; chosen by {@link #start()}. */
    @Override
    public ChannelKind channelKind() {
        return view.channelKind();
    }

    /** Only sharded channels live on the lock's node, where a release's publish counts their listeners. */
    @Override
    public boolean publishCountsListeners() {
        return channelKind() == ChannelKind.SHARDED;
    }

    /** The master that serves {@code key}'s slot now, or the slot while it has none. */
    @Override
    public Object batchGroup(String key) {
        return batches.group(key);
    }

    @Override
    public CompletableFuture<String> send(KeyBatch batch) {
        return batches.send(batch);
    }

    /** After a failover or a moved slot: the view saw some slot get another master. */
    @Override
    public void onMastersMoved(Consumer<String> listener) {
        view.onMastersMoved(() -> listener.accept("a new slot map gave some slots another master (a failover or a"
                + " moved slot)"));
    }

    @Override
    public boolean knownDown(String key) {
        return view.knownDown(key);
    }

    /** The commands of every node's connection; the subscriptions' connections are not counted. */
    @Override
    public int commandsInFlight() {
        return nodes.commandsInFlight();
    }

    @Override
    public ReplicaAcks replicaAcks() {
        return config.replicaAcks();
    }

    @Override
    public List<RedisCommands> masterCommands() {
        List<RedisCommands> masters = new ArrayList<>();
        for (NodeAddress master : view.map().masters()) {
            masters.add(commands.node(master));
        }
        return masters;
    }

    @Override
    public RedisCommands commands(ReplicaAcks acks) {
        return acks.equals(config.replicaAcks()) ? commands : confirmed.computeIfAbsent(acks,
                a -> new ClusterCommands(nodes, view, timer, 2 * config.commandTimeout().toMillis(), a));
    }

    /** None: a cluster's commands take the nodes' event-loop connections. */
    @Override
    public DirectConnections direct() {
        return null;
    }

    @Override
    public CompletableFuture<Void> start() {
        return ClusterView.discover(nodes, seeds(config))
                .thenCompose(map -> {
                    view.update(map);
                    return view.chooseChannelKind();
                })
                .thenAccept(kind -> view.refreshEvery(config.topologyRefresh().toMillis()));
    }

    @Override
    public CompletableFuture<Void> close() {
        view.close();
        return CompletableFuture.allOf(nodes.close(), pubSub.close());
    }
}
