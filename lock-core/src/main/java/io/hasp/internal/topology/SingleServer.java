package io.hasp.internal.topology;

import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.internal.Futures;
import io.hasp.internal.connection.CallerAdmission;
import io.hasp.internal.connection.ConnectionPool;
import io.hasp.internal.connection.Connector;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.connection.ReplicaAckGate;
import io.hasp.internal.connection.Transport;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.DefaultPubSub;
import io.hasp.internal.pubsub.PubSub;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One Redis server ({@code redis://}, {@code rediss://}, {@code redis-socket://}): a small pool of
 * multiplexed command connections, spread over the event loops; one pub/sub connection on classic
 * channels; and, on a plain TCP socket, the direct connections on which blocking lock calls read their
 * own replies. Every key lives on the one server, so a watchdog batch is one call.
 */
public final class SingleServer implements Topology {

    private final ConnectionPool pool;
    private final DirectConnections direct;   // null over TLS or a Unix socket, or when turned off
    private final ReplicaAcks acks;
    private final Map<RedisConnection, ReplicaAckGate> gates;   // one per pooled connection, for every setting
    private final ConcurrentMap<ReplicaAcks, RedisCommands> confirmed = new ConcurrentHashMap<>();
    private final DefaultPubSub pubSub;
    private final RedisCommands commands;

    /**
     * @param config the client's configuration (where to connect and how)
     * @param transport the client's event loops
     * @param timer the client's timer
     * @param admission which calling threads may read their own replies on a direct connection
     */
    public SingleServer(HaspConfig config, Transport transport, Timer timer, CallerAdmission admission) {
        this(new Connector(config, transport), timer, admission);
    }

    /**
     * The server {@code connector} leads to, which may move ({@link Connector#following}: the master of a
     * Sentinel deployment, whose topology drives this one).
     *
     * @param connector opens the connections, with the client's configuration
     * @param timer the client's timer
     * @param admission which calling threads may read their own replies on a direct connection; null for
     *     no direct connections (they connect to the configured address, not to a moving one)
     */
    public SingleServer(Connector connector, Timer timer, CallerAdmission admission) {
        HaspConfig config = connector.config();
        Transport transport = connector.transport();
        Iterator<EventExecutor> loops = transport.group().iterator();
        List<RedisConnection> connections = new ArrayList<>(config.poolSize());
        for (int i = 0; i < config.poolSize(); i++) {
            loops = loops.hasNext() ? loops : transport.group().iterator();
            connections.add(new RedisConnection("cmd-" + i, connector, (EventLoop) loops.next(), timer, null));
        }
        this.pool = new ConnectionPool(connections);
        // The direct path is a plain TCP socket: not over TLS or a Unix socket, nor when replicas must
        // confirm scripts (a script's WAIT goes on the script's connection).
        this.direct = admission != null && config.directConnections() > 0 && !config.tls() && config.socketPath() == null
                && !config.replicaAcks().enabled() ? new DirectConnections(config, pool, timer, admission) : null;
        this.acks = config.replicaAcks();
        this.gates = DefaultRedisCommands.gates(pool);
        this.commands = new DefaultRedisCommands(pool, direct, acks, gates);
        EventLoop pubSubLoop = (EventLoop) (loops.hasNext() ? loops : transport.group().iterator()).next();
        this.pubSub = new DefaultPubSub(push -> new RedisConnection("pubsub", connector, pubSubLoop, timer, push),
                timer, config.commandTimeout().toMillis());
    }

    @Override
    public RedisCommands commands() {
        return commands;
    }

    @Override
    public PubSub pubSub() {
        return pubSub;
    }

    /** Classic channels: a single server's subscribers all hear a {@code PUBLISH}. */
    @Override
    public ChannelKind channelKind() {
        return ChannelKind.CLASSIC;
    }

    /** One group: every key is on the one server. */
    @Override
    public Object batchGroup(String key) {
        return this;
    }

    @Override
    public CompletableFuture<String> send(KeyBatch batch) {
        return Futures.sent(() -> batch.send(commands, /* keysDeclared= */ true));
    }

    /** Never: the one server serves every key for the client's whole life. */
    @Override
    public void onMastersMoved(Consumer<String> listener) {
    }

    /** Whether every pooled connection is lost now (reconnecting); the key does not matter. */
    @Override
    public boolean knownDown(String key) {
        return !pool.anyReady();
    }

    @Override
    public ReplicaAcks replicaAcks() {
        return acks;
    }

    @Override
    public RedisCommands commands(ReplicaAcks other) {
        return other.equals(acks) ? commands
                : confirmed.computeIfAbsent(other, a -> new DefaultRedisCommands(pool, null, a, gates));
    }

    @Override
    public DirectConnections direct() {
        return direct;
    }

    /** The commands of the pool's connections and of the direct calls; those of the pub/sub connection are not counted. */
    @Override
    public int commandsInFlight() {
        int n = direct == null ? 0 : direct.commandsInFlight();
        for (RedisConnection connection : pool.connections()) {
            n += connection.commandsInFlight();
        }
        return n;
    }

    /** Its multiplexed connections: the pool's, then the pub/sub connection. */
    public List<RedisConnection> connections() {
        List<RedisConnection> all = new ArrayList<>(pool.connections());
        all.add(pubSub.connection());
        return all;
    }

    @Override
    public CompletableFuture<Void> start() {
        return CompletableFuture.allOf(pool.start(), pubSub.connection().start());
    }

    @Override
    public CompletableFuture<Void> close() {
        if (direct != null) {
            direct.close();
        }
        return CompletableFuture.allOf(pool.close(), pubSub.close());
    }
}
