package io.hasp.internal.sentinel;

import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.RedisCommands;
import io.hasp.SentinelConfig;
import io.hasp.internal.Futures;
import io.hasp.internal.connection.Connector;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.connection.Transport;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.DefaultPubSub;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import io.hasp.internal.topology.SingleServer;
import io.hasp.internal.topology.Topology;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master that Redis Sentinel watches ({@code redis-sentinel://}): found through the sentinels
 * ({@link SentinelDiscovery}) and followed across switches ({@link SentinelWatch}). Toward the master it
 * is a {@link SingleServer} (a pool of command connections, one pub/sub connection on classic channels,
 * every key in one watchdog batch) whose connector follows the master, so a switch is a reconnect
 * elsewhere: each connection drops its channel to the old master (commands in flight fail as on any
 * lost connection; the lock engine's retries and lost-reply rules cover them), the commands sent
 * meanwhile wait for the new master, and the pub/sub connection subscribes its channels again there, so
 * that waiters check their lock anew. Once no command can reach the old master any more, the lock
 * engine checks every watchdog hold on the new one ({@link #onMastersMoved}). No direct connections:
 * blocking lock calls use the multiplexed ones.
 *
 * <p>When a sentinel says it is about to promote a replica, the connections leave the master at once
 * and wait, connected nowhere, for the switch: the old master takes writes until the sentinels demote
 * it, and every write it takes after the promotion is thrown away then. Commands sent meanwhile wait
 * (up to their timeout) and go to the new master. A pause the switch does not end within the check
 * period (a failover that was aborted) ends with asking the sentinels where the master is.
 */
public final class SentinelTopology implements Topology {

    private static final Logger log = LoggerFactory.getLogger(SentinelTopology.class);

    private final HaspConfig config;
    private final Timer timer;
    private final NodeConnections sentinels;
    private final NodeConnections dataNodes;
    private final Connector sentinelSettings;
    private final SentinelDiscovery discovery;
    private final SentinelWatch watch;
    private final SingleServer server;
    private volatile NodeAddress master;
    /** While a sentinel promotes a replica: the connections connect nowhere until the switch. */
    private volatile boolean paused;
    private volatile Consumer<String> onMastersMoved = why -> { };

    /**
     * @param config the client's configuration, with its {@link HaspConfig#sentinel()} set
     * @param transport the client's event loops
     * @param timer the client's timer
     */
    public SentinelTopology(HaspConfig config, Transport transport, Timer timer) {
        SentinelConfig sentinel = config.sentinel();
        this.config = config;
        this.timer = timer;
        // The sentinels are servers of their own: their credentials, no database.
        HaspConfig sentinelConfig = config.toBuilder().sentinel(null).replicaAcks(ReplicaAcks.NONE)
                .username(sentinel.username()).password(sentinel.password()).database(0).build();
        this.sentinels = new NodeConnections(sentinelConfig, transport, timer);
        this.sentinelSettings = new Connector(sentinelConfig, transport);
        this.dataNodes = new NodeConnections(config, transport, timer);
        List<NodeAddress> addresses = new ArrayList<>();
        for (InetSocketAddress address : sentinel.sentinels()) {
            addresses.add(new NodeAddress(address.getHostString(), address.getPort()));
        }
        this.discovery = new SentinelDiscovery(addresses, sentinel.masterName(), sentinels::of, dataNodes::of);
        this.watch = new SentinelWatch(discovery, addresses, this::listenTo, timer, sentinel.checkEvery().toMillis(),
                this::switchTo, this::pause);
        Connector toMaster = new Connector(config, transport).following(() -> {
            NodeAddress now = master;
            return now == null || paused ? null : InetSocketAddress.createUnresolved(now.host(), now.port());
        });
        this.server = new SingleServer(toMaster, timer, null);
    }

    @Override
    public RedisCommands commands() {
        return server.commands();
    }

    @Override
    public PubSub pubSub() {
        return server.pubSub();
    }

    /** Classic channels: every subscriber of the master hears a {@code PUBLISH}. */
    @Override
    public ChannelKind channelKind() {
        return server.channelKind();
    }

    /** One group: every key is on the master. */
    @Override
    public Object batchGroup(String key) {
        return server.batchGroup(key);
    }

    @Override
    public CompletableFuture<String> send(KeyBatch batch) {
        return server.send(batch);
    }

    /** At every switch, once no command can reach the old master any more, naming the switch. */
    @Override
    public void onMastersMoved(Consumer<String> listener) {
        this.onMastersMoved = listener;
    }

    /**
     * Whether no master is known yet, a promotion is under way, or every pooled connection is lost now;
     * the key does not matter.
     */
    @Override
    public boolean knownDown(String key) {
        return master == null || paused || server.knownDown(key);
    }

    /** The master's commands and those to the data nodes (replica checks); not the questions to the sentinels. */
    @Override
    public int commandsInFlight() {
        return server.commandsInFlight() + dataNodes.commandsInFlight();
    }

    @Override
    public ReplicaAcks replicaAcks() {
        return config.replicaAcks();
    }

    @Override
    public RedisCommands commands(ReplicaAcks acks) {
        return server.commands(acks);
    }

    /** None: blocking lock calls take the multiplexed connections, which follow the master. */
    @Override
    public DirectConnections direct() {
        return null;
    }

    /** The master as last found or announced; null before {@link #start()} found one. */
    public NodeAddress master() {
        return master;
    }

    @Override
    public CompletableFuture<Void> start() {
        return discovery.master().thenCompose(found -> {
            master = found;
            // Not waited for: a sentinel that is down would hold the start up for the connect timeout,
            // and the watch's periodic check covers what it would have said.
            watch.start(found);
            return server.start();
        });
    }

    /** A started pub/sub connection to a sentinel, for the watch, with the sentinels' credentials. */
    private CompletableFuture<PubSub> listenTo(NodeAddress sentinel) {
        Connector connector = sentinelSettings.at(sentinel.host(), sentinel.port());
        EventLoop loop = (EventLoop) sentinelSettings.transport().group().next();
        DefaultPubSub listening = new DefaultPubSub(push -> new RedisConnection("sentinel", connector, loop, timer, push),
                timer, config.commandTimeout().toMillis());
        return listening.connection().start().handle((ok, failure) -> {
            if (failure != null) {
                listening.close();
                throw new CompletionException(Futures.unwrap(failure));
            }
            return listening;
        });
    }

    /**
     * A sentinel is promoting {@code chosen}: leave the master now, and wait for the switch (or, if none
     * comes within the check period, ask the sentinels again).
     */
    void pause(NodeAddress chosen) {
        paused = true;
        for (RedisConnection connection : server.connections()) {
            connection.redirect();
        }
        try {
            timer.newTimeout(t -> {
                if (paused) {
                    log.warn("no switch of '{}' announced since a sentinel began promoting {}: asking the sentinels",
                            discovery.masterName(), chosen);
                    discovery.master().whenComplete((found, failure) -> switchTo(found != null ? found : master));
                }
            }, config.sentinel().checkEvery().toMillis(), TimeUnit.MILLISECONDS);
        } catch (IllegalStateException timerStopped) {
            // the client is closing
        }
    }

    /** The watch saw a new master: every connection moves there, then the holds are checked. */
    private void switchTo(NodeAddress next) {
        NodeAddress before = master;
        master = next;
        paused = false;
        List<CompletableFuture<Void>> moved = new ArrayList<>();
        for (RedisConnection connection : server.connections()) {
            moved.add(connection.redirect());
        }
        String why = "the sentinels switched the master of '" + discovery.masterName() + "' from " + before + " to "
                + next;
        CompletableFuture.allOf(moved.toArray(new CompletableFuture<?>[0])).whenComplete((ok, failure) -> {
            log.info("{}: checking every hold there", why);
            dataNodes.retireAllBut(Set.of(next));
            onMastersMoved.accept(why);
        });
    }

    @Override
    public CompletableFuture<Void> close() {
        watch.close();
        return CompletableFuture.allOf(server.close(), sentinels.close(), dataNodes.close());
    }
}
