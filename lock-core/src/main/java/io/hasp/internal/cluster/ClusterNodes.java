package io.hasp.internal.cluster;

import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.internal.DefaultRedisCommands;
import io.hasp.internal.connection.ConnectionListener;
import io.hasp.internal.connection.Connector;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.connection.Transport;
import io.hasp.internal.pool.ConnectionPool;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The commands of each cluster node, opened on first use: one multiplexed connection per node
 * (so that {@code ASKING} and the command after it travel in order on one connection), with the
 * client's settings but the node's address. The connection starts in the background; commands
 * sent meanwhile wait for it, up to their timeout.
 *
 * <p>Each node also has {@linkplain DirectConnections direct connections} for blocking lock calls, as a
 * single server has (up to {@link HaspConfig#directConnections()} per node; none over TLS or when turned
 * off): a blocking call's first script goes to its slot's master on one of them, and whatever follows a
 * redirection ({@code ASKING} and the command after it, a re-send after {@code MOVED} or {@code TRYAGAIN})
 * goes on the node's multiplexed connection. Thread-safe.
 */
public final class ClusterNodes {

    private final HaspConfig config;
    private final Transport transport;
    private final Timer timer;
    private final ConcurrentMap<NodeAddress, Node> nodes = new ConcurrentHashMap<>();
    private volatile Runnable onNodeLost = () -> { };
    private volatile boolean closed;

    /**
     * One node's connections: {@code commands} may run a blocking call's script on {@code direct};
     * {@code multiplexed} never does.
     */
    private record Node(RedisConnection connection, RedisCommands commands, RedisCommands multiplexed,
            DirectConnections direct) {

        CompletableFuture<Void> close() {
            if (direct != null) {
                direct.close();
            }
            return connection.close();
        }
    }

    /**
     * @param config the client's settings (the address is replaced by each node's)
     * @param transport the client's event loops
     * @param timer the client's timer
     */
    public ClusterNodes(HaspConfig config, Transport transport, Timer timer) {
        this.config = config;
        this.transport = transport;
        this.timer = timer;
    }

    /** Runs {@code action} (on an event loop; it must not block) whenever a node's connection is lost. */
    public void onNodeLost(Runnable action) {
        this.onNodeLost = action;
    }

    /**
     * The commands of {@code node}, connecting to it on first use; a blocking lock call's script may run
     * on one of the node's direct connections.
     */
    public RedisCommands of(NodeAddress node) {
        return node(node).commands();
    }

    /**
     * The commands of {@code node} on its multiplexed connection only, connecting to it on first use: for
     * commands that must follow one another on one connection ({@code ASKING} and the command it is for).
     */
    public RedisCommands multiplexed(NodeAddress node) {
        return node(node).multiplexed();
    }

    private Node node(NodeAddress node) {
        if (closed) {
            throw new IllegalStateException("cluster connections closed");
        }
        return nodes.computeIfAbsent(node, this::open);
    }

    /**
     * The direct connections of each node known now, for tests and monitoring.
     *
     * @return node to its direct connections, in a new map; empty when the client has none
     */
    public Map<NodeAddress, DirectConnections> directConnections() {
        Map<NodeAddress, DirectConnections> direct = new LinkedHashMap<>();
        nodes.forEach((address, node) -> {
            if (node.direct() != null) {
                direct.put(address, node.direct());
            }
        });
        return direct;
    }

    /** A connector to {@code node}, with the client's settings but the node's address. */
    public Connector connector(NodeAddress node) {
        return new Connector(config.toBuilder().host(node.host()).port(node.port()).build(), transport);
    }

    private Node open(NodeAddress address) {
        RedisConnection connection = new RedisConnection("node", connector(address),
                (EventLoop) transport.group().next(), timer, null);
        ConnectionPool pool = new ConnectionPool(List.of(connection));
        // The direct path is a plain TCP socket: not over TLS.
        DirectConnections direct = config.directConnections() > 0 && !config.tls()
                ? new DirectConnections(config, pool, timer) : null;
        Node node = new Node(connection, new DefaultRedisCommands(pool, direct), new DefaultRedisCommands(pool, null),
                direct);
        connection.addListener(new ConnectionListener() {
            @Override
            public void connected(RedisConnection c, boolean reconnect) {
            }

            @Override
            public void disconnected(RedisConnection c) {
                if (!closed) {
                    onNodeLost.run();   // the node may have failed over or left: read the topology again
                }
            }
        });
        connection.start().whenComplete((ok, failure) -> {
            if (failure != null) {
                // Not reachable within the connect timeout: forget it, so the next use connects anew.
                nodes.remove(address, node);
                node.close();
            }
        });
        return node;
    }

    /** Closes every node's connection; the future completes when all are closed. */
    public CompletableFuture<Void> close() {
        closed = true;
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Node node : nodes.values()) {
            closing.add(node.close());
        }
        return CompletableFuture.allOf(closing.toArray(new CompletableFuture<?>[0]));
    }
}
