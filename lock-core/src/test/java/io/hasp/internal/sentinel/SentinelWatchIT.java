package io.hasp.internal.sentinel;

import static io.hasp.internal.sentinel.SentinelDiscoveryIT.address;
import static io.hasp.internal.sentinel.SentinelDiscoveryIT.sentinels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.internal.topology.NodeConnections;
import io.hasp.internal.connection.ClientRig;
import io.hasp.internal.connection.Connector;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.pubsub.DefaultPubSub;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Master switches of a real Sentinel deployment reported by the watch: through the sentinels'
 * {@code +switch-master} messages (the periodic check set too long to matter), through the periodic
 * check alone (no sentinel listened to), once each, and only for the watched master name.
 */
class SentinelWatchIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static RedisSentinel deployment;
    private ClientRig rig;
    private NodeConnections connections;
    private Connector settings;
    private SentinelWatch watch;
    private final List<NodeAddress> switches = new CopyOnWriteArrayList<>();
    private final List<NodeAddress> promotions = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        deployment = RedisSentinel.start();
    }

    @AfterAll
    static void stop() {
        deployment.close();
    }

    @BeforeEach
    void connect() {
        HaspConfig config = HaspConfig.builder().commandTimeout(Duration.ofSeconds(2))
                .connectTimeout(Duration.ofSeconds(1)).build();
        rig = new ClientRig(config, 1);
        connections = new NodeConnections(config, rig.transport, rig.timer);
        settings = new Connector(config, rig.transport);
    }

    @AfterEach
    void close() throws Exception {
        if (watch != null) {
            watch.close();
        }
        connections.close().get(30, TimeUnit.SECONDS);
        rig.close();
        deployment.dataNodes().stream().filter(node -> !node.isRunning()).forEach(RedisServer::restart);
        deployment.awaitWhole();   // the old master a replica again before the next test fails over
    }

    /** A started pub/sub connection to the sentinel at {@code address}. */
    private CompletableFuture<PubSub> listen(NodeAddress address) {
        DefaultPubSub pubSub = new DefaultPubSub(push -> new RedisConnection("sentinel",
                settings.at(address.host(), address.port()), (EventLoop) rig.transport.group().next(), rig.timer, push),
                rig.timer, 2_000);
        return pubSub.connection().start().thenApply(v -> pubSub);
    }

    private SentinelWatch watch(Function<NodeAddress, CompletableFuture<PubSub>> open, long checkMillis) {
        SentinelDiscovery discovery = new SentinelDiscovery(sentinels(deployment), RedisSentinel.MASTER_NAME,
                connections::of, connections::of);
        watch = new SentinelWatch(discovery, sentinels(deployment), open, rig.timer, checkMillis, switches::add,
                promotions::add);
        return watch;
    }

    @Test
    void theSentinelsAnnounceARequestedFailover() throws Exception {
        NodeAddress before = address(deployment.master());
        // The reference: the switches one sentinel announces (each sentinel announces each switch once). On a busy
        // machine the sentinels may switch a second time right after the requested one (their down-after is one
        // second): the watch must then report that one too, and still each switch once.
        List<NodeAddress> announced = new CopyOnWriteArrayList<>();
        PubSub witness = listen(sentinels(deployment).get(0)).get(30, TimeUnit.SECONDS);
        try {
            witness.subscribe(SentinelWatch.SWITCH_CHANNEL, (channel, message) -> announced.add(newMaster(message)))
                    .get(30, TimeUnit.SECONDS);
            // The check once a minute: only the sentinels' messages can report the switch in time.
            watch(this::listen, 60_000).start(before).get(30, TimeUnit.SECONDS);
            NodeAddress promoted = address(deployment.failover());
            assertTrue(Conditions.await(DEADLINE, () -> !switches.isEmpty() && switches.equals(announced)
                    && switches.get(switches.size() - 1).equals(watch.master())),
                    "each announced switch reported once, though every sentinel announces it: " + switches
                    + ", announced " + announced + ", master " + watch.master());
            assertEquals(promoted, switches.get(0), "the replica the sentinels promoted");
            assertEquals(promoted, promotions.get(0), "the replica the sentinel chose, told before the switch");
        } finally {
            witness.close().get(30, TimeUnit.SECONDS);
        }
    }

    /** The new master a {@code +switch-master} message names: {@code <name> <old ip> <old port> <ip> <port>}. */
    private static NodeAddress newMaster(String message) {
        String[] parts = message.split(" ");
        return new NodeAddress(parts[3], Integer.parseInt(parts[4]));
    }

    @Test
    void theCheckFindsASwitchWhenNoSentinelCanBeListenedTo() throws Exception {
        NodeAddress before = address(deployment.master());
        watch(sentinel -> CompletableFuture.failedFuture(new RedisConnectionException("refused in this test", null)), 200)
                .start(before).get(30, TimeUnit.SECONDS);
        NodeAddress promoted = address(deployment.killMaster());
        assertTrue(Conditions.await(DEADLINE, () -> !switches.isEmpty()), "a switch found by the check");
        assertEquals(List.of(promoted), switches);
    }

    @Test
    void theCheckKeepsAnAnnouncedMasterThatStillSaysItIsOne() throws Exception {
        // Right after a switch a lagging sentinel names the old master, which still says it is one:
        // here the "old" master is the deployment's and the announced one a server of its own.
        try (RedisServer announced = RedisServer.start()) {
            NodeAddress master = address(deployment.master());
            SentinelWatch watching = watch(sentinel -> new CompletableFuture<>(), 100);
            watching.start(master);
            watching.announced(SentinelWatch.SWITCH_CHANNEL, RedisSentinel.MASTER_NAME + " " + master.host() + " "
                    + master.port() + " " + announced.host() + " " + announced.port());
            long after = watching.checks();
            assertTrue(Conditions.await(DEADLINE, () -> watching.checks() >= after + 3), "checks ran");
            assertEquals(List.of(address(announced)), switches, "not back to the master the sentinels still name");
        }
    }

    @Test
    void theCheckLeavesAnAnnouncedMasterThatDoesNotAnswer() {
        NodeAddress master = address(deployment.master());
        SentinelWatch watching = watch(sentinel -> new CompletableFuture<>(), 100);
        watching.start(master);
        NodeAddress gone = SentinelDiscoveryIT.nobody();
        watching.announced(SentinelWatch.SWITCH_CHANNEL, RedisSentinel.MASTER_NAME + " " + master.host() + " "
                + master.port() + " " + gone.host() + " " + gone.port());
        assertTrue(Conditions.await(DEADLINE, () -> switches.size() == 2), "switched back: " + switches);
        assertEquals(List.of(gone, master), switches);
    }

    @Test
    void aSentinelThatCouldNotBeListenedToIsTriedAgainAtTheCheck() {
        Set<NodeAddress> refusedOnce = ConcurrentHashMap.newKeySet();
        SentinelWatch watching = watch(sentinel -> refusedOnce.add(sentinel)
                ? CompletableFuture.failedFuture(new RedisConnectionException("down at start in this test", null))
                : listen(sentinel), 100);
        watching.start(address(deployment.master()));
        assertEquals(0, watching.listenedTo());
        assertTrue(Conditions.await(DEADLINE, () -> watching.listenedTo() == deployment.sentinels().size()),
                "listened to at a later check: " + watching.listenedTo());
    }

    @Test
    void onlyTheWatchedMastersSwitchesCount() {
        SentinelWatch unstarted = watch(sentinel -> new CompletableFuture<>(), 60_000);
        unstarted.announced(SentinelWatch.SWITCH_CHANNEL, "orders 127.0.0.1 7000 127.0.0.1 7001");
        unstarted.announced(SentinelWatch.SWITCH_CHANNEL, RedisSentinel.MASTER_NAME + " 127.0.0.1 7000");
        assertEquals(List.of(), switches);
        unstarted.announced(SentinelWatch.SWITCH_CHANNEL, RedisSentinel.MASTER_NAME + " 127.0.0.1 7000 127.0.0.1 7001");
        assertEquals(List.of(new NodeAddress("127.0.0.1", 7001)), switches);
        String promotion = "slave 127.0.0.1:7002 127.0.0.1 7002 @ ";
        unstarted.promoting(SentinelWatch.PROMOTION_CHANNEL, promotion + "orders 127.0.0.1 7001");
        unstarted.promoting(SentinelWatch.PROMOTION_CHANNEL, promotion + RedisSentinel.MASTER_NAME + " 127.0.0.1 7000");
        unstarted.promoting(SentinelWatch.PROMOTION_CHANNEL, "slave 127.0.0.1:7002 @ " + RedisSentinel.MASTER_NAME);
        assertEquals(List.of(), promotions, "another master's, a former master's, a malformed message");
        unstarted.promoting(SentinelWatch.PROMOTION_CHANNEL, promotion + RedisSentinel.MASTER_NAME + " 127.0.0.1 7001");
        assertEquals(List.of(new NodeAddress("127.0.0.1", 7002)), promotions);
    }
}
