package io.hasp.internal.topology;

import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.internal.connection.ConnectionListener;
import io.hasp.internal.connection.ConnectionPool;
import io.hasp.internal.connection.Connector;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.connection.ReplicaAckGate;
import io.hasp.internal.connection.Transport;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

/**
 * The commands of each server of a deployment by address, opened on first use: a cluster's nodes, a
 * Sentinel deployment's sentinels and data nodes. One multiplexed connection per server (so that, on a
 * cluster, {@code ASKING} and the command after it travel in order on one connection), with the
 * client's settings but the server's address. The connection starts in the background; commands
 * sent meanwhile wait for it, up to their timeout. Thread-safe.
 */
public final class NodeConnections {

    private final Transport transport;
    /** The configured settings: each node's connector is this one at the node's address. */
    private final Connector settings;
    private final Timer timer;
    private final ConcurrentMap<NodeAddress, Node> nodes = new ConcurrentHashMap<>();
    private volatile Consumer<NodeAddress> onNodeLost = node -> { };
    private volatile boolean closed;

    /** A node's connection, its commands, and its commands confirmed by other {@link ReplicaAcks} than the client's. */
    private record Node(RedisConnection connection, ConnectionPool pool, Map<RedisConnection, ReplicaAckGate> gates,
            RedisCommands commands, ConcurrentMap<ReplicaAcks, RedisCommands> confirmed) {
    }

    /**
     * @param config the client's settings (the address is replaced by each node's)
     * @param transport the client's event loops
     * @param timer the client's timer
     */
    public NodeConnections(HaspConfig config, Transport transport, Timer timer) {
        this.transport = transport;
        this.settings = new Connector(config, transport);
        this.timer = timer;
    }

    /**
     * Runs {@code action} with the node (on an event loop; it must not block) whenever a node's connection
     * is lost.
     */
    public void onNodeLost(Consumer<NodeAddress> action) {
        this.onNodeLost = action;
    }

    /** Whether {@code node}'s connection is open and ready now; false for a node not connected to yet. */
    public boolean isConnected(NodeAddress node) {
        Node known = nodes.get(node);
        return known != null && known.connection().isReady();
    }

    /** Whether {@code node} has a connection that is not ready now (lost, or still opening). */
    public boolean isDown(NodeAddress node) {
        Node known = nodes.get(node);
        return known != null && !known.connection().isReady();
    }

    /** The commands of {@code node} whose scripts {@code acks} confirm, on the node's one connection. */
    public RedisCommands of(NodeAddress node, ReplicaAcks acks) {
        RedisCommands commands = of(node);
        if (acks.equals(settings.config().replicaAcks())) {
            return commands;
        }
        Node known = nodes.get(node);
        return known == null ? commands : known.confirmed().computeIfAbsent(acks,
                a -> new DefaultRedisCommands(known.pool(), null, a, known.gates()));
    }

    /** The commands of {@code node}, connecting to it on first use. */
    public RedisCommands of(NodeAddress node) {
        if (closed) {
            throw new IllegalStateException("cluster connections closed");
        }
        Node known = nodes.computeIfAbsent(node, this::open);
        if (closed) {
            // close() may have walked the map before this node was added: nobody else would close it.
            nodes.remove(node, known);
            known.connection().close();
            throw new IllegalStateException("cluster connections closed");
        }
        return known.commands();
    }

    /** How many commands the nodes' connections hold now, sent or queued and not answered; a snapshot. */
    public int commandsInFlight() {
        int n = 0;
        for (Node node : nodes.values()) {
            n += node.connection().commandsInFlight();
        }
        return n;
    }

    /** The nodes this client has a connection to (up or down) now. */
    public Set<NodeAddress> known() {
        return Set.copyOf(nodes.keySet());
    }

    /**
     * Closes the connections of nodes outside {@code keep} that are down now: a node that left the
     * topology (a dead master replaced by its replica, a seed that is gone) would otherwise be
     * reconnected to for the client's life. The commands still waiting on such a connection fail with
     * {@link io.hasp.internal.connection.NotSentException}, which the router sends on to the slot's
     * current master. A connection that is up stays: it costs nothing, and its replies may be awaited.
     */
    public void retireAllBut(Set<NodeAddress> keep) {
        for (Map.Entry<NodeAddress, Node> entry : nodes.entrySet()) {
            NodeAddress address = entry.getKey();
            Node node = entry.getValue();
            if (keep.contains(address) || node.connection().isReady()) {
                continue;
            }
            node.connection().closeIfDown("the node " + address + " left the cluster topology").thenAccept(retired -> {
                if (retired) {
                    nodes.remove(address, node);
                }
            });
        }
    }

    /** A connector to {@code node}, with the client's settings (one TLS context for all nodes) but the node's address. */
    public Connector connector(NodeAddress node) {
        return settings.at(node.host(), node.port());
    }

    private Node open(NodeAddress address) {
        RedisConnection connection = new RedisConnection("node", connector(address),
                (EventLoop) transport.group().next(), timer, null);
        ConnectionPool pool = new ConnectionPool(List.of(connection));
        Map<RedisConnection, ReplicaAckGate> gates = DefaultRedisCommands.gates(pool);
        Node node = new Node(connection, pool, gates,
                new DefaultRedisCommands(pool, null, settings.config().replicaAcks(), gates), new ConcurrentHashMap<>());
        connection.addListener(new ConnectionListener() {
            @Override
            public void connected(RedisConnection c, boolean reconnect) {
            }

            @Override
            public void disconnected(RedisConnection c) {
                if (!closed) {
                    onNodeLost.accept(address);   // it may have failed over or left: read the topology again
                }
            }
        });
        connection.start().whenComplete((ok, failure) -> {
            if (failure != null) {
                // Not reachable within the connect timeout: forget it, so the next use connects anew.
                nodes.remove(address, node);
                connection.close();
                if (!closed) {
                    onNodeLost.accept(address);   // a master that died before this client reached it
                }
            }
        });
        return node;
    }

    /** Closes every node's connection; the future completes when all are closed. */
    public CompletableFuture<Void> close() {
        closed = true;
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Node node : nodes.values()) {
            closing.add(node.connection().close());
        }
        return CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0]));
    }
}
