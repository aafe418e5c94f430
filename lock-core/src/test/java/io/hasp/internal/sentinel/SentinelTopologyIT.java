package io.hasp.internal.sentinel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.SentinelConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A client on the fixture's Sentinel deployment (a master, 2 replicas, 3 sentinels): it finds the
 * master, keeps its locks there, follows a requested failover and a killed master, checks its holds on
 * the new master at once, and refuses a master name or a sentinel set it cannot use with an error that
 * names them. The tests that move the master run last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelTopologyIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static RedisSentinel deployment;
    private final List<HaspClient> clients = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    static void start() {
        deployment = RedisSentinel.start();
    }

    @AfterAll
    static void stop() {
        deployment.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS), "test threads stopped");
        clients.forEach(HaspClient::close);
        deployment.dataNodes().stream().filter(node -> !node.isRunning()).forEach(RedisServer::restart);
        deployment.awaitWhole();   // the old master a replica again before the next test fails over
    }

    private HaspClient client(HaspConfig.Builder builder) {
        HaspClient client = HaspClient.create(builder.build());
        clients.add(client);
        return client;
    }

    /** A client whose watchdog renews only every 100 s: a hold checked sooner was checked at the switch. */
    private HaspClient client() {
        return client(HaspConfig.builder().uri(deployment.uri()).watchdogLease(Duration.ofSeconds(300))
                .commandTimeout(Duration.ofSeconds(2)));
    }

    private static Object call(RedisServer node, String... command) {
        try (RedisProbe probe = node.probe()) {
            return probe.call(command);
        }
    }

    private static List<InetSocketAddress> sentinelAddresses() {
        List<InetSocketAddress> sentinels = new ArrayList<>();
        for (RedisServer sentinel : deployment.sentinels()) {
            sentinels.add(InetSocketAddress.createUnresolved(sentinel.host(), sentinel.port()));
        }
        return sentinels;
    }

    private static int freePort() {
        return SentinelDiscoveryIT.nobody().port();
    }

    @Test
    @Order(1)
    void locksLiveOnTheMasterTheSentinelsName() {
        HaspClient client = client(HaspConfig.builder().uri(deployment.uri()).clientName("sentinel-it"));
        HaspLock lock = client.getLock("stock");
        lock.lock();
        RedisServer master = deployment.master();
        assertEquals(1L, call(master, "EXISTS", "stock"), "the lock is on " + master);
        lock.unlock();
        assertEquals(0L, call(master, "EXISTS", "stock"));
        assertEquals("redis-sentinel://" + deployment.sentinelAddresses() + "#" + RedisSentinel.MASTER_NAME,
                client.config().redactedUri());
        HaspClient resp3 = client(HaspConfig.builder().uri(deployment.uri() + "").protocol(HaspConfig.Protocol.RESP3)
                .clientName("sentinel-it-3"));
        assertTrue(resp3.getLock("stock").tryLock(), "RESP3 toward the sentinels and the master");
        assertEquals(1L, call(master, "EXISTS", "stock"));
        resp3.getLock("stock").unlock();
    }

    @Test
    @Order(2)
    void aSentinelThatIsDownIsSkipped() {
        List<InetSocketAddress> sentinels = new ArrayList<>();
        sentinels.add(InetSocketAddress.createUnresolved("127.0.0.1", freePort()));
        sentinels.addAll(sentinelAddresses());
        HaspClient client = client(HaspConfig.builder().connectTimeout(Duration.ofSeconds(1))
                .sentinel(SentinelConfig.of(RedisSentinel.MASTER_NAME, sentinels)));
        assertTrue(client.getLock("skipped").tryLock());
        assertEquals(1L, call(deployment.master(), "EXISTS", "skipped"));
        client.getLock("skipped").unlock();
    }

    @Test
    @Order(3)
    void aMasterNameNoSentinelMonitorsIsRefusedNamingEverySentinel() {
        RedisConnectionException e = assertThrows(RedisConnectionException.class, () -> client(HaspConfig.builder()
                .uri("redis-sentinel://" + deployment.sentinelAddresses() + "#orders")));
        assertTrue(e.getMessage().contains("no master 'orders'"), e.getMessage());
        for (RedisServer sentinel : deployment.sentinels()) {
            assertTrue(e.getMessage().contains(sentinel.host() + ":" + sentinel.port()
                    + " does not monitor a master named 'orders'"), e.getMessage());
        }
    }

    @Test
    @Order(4)
    void noSentinelUpAtStartIsAClearError() {
        int a = freePort();
        int b = freePort();
        RedisConnectionException e = assertThrows(RedisConnectionException.class, () -> client(HaspConfig.builder()
                .connectTimeout(Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(1))
                .uri("redis-sentinel://127.0.0.1:" + a + ",127.0.0.1:" + b + "#" + RedisSentinel.MASTER_NAME)));
        assertTrue(e.getMessage().contains("no master '" + RedisSentinel.MASTER_NAME + "' from the sentinels"),
                e.getMessage());
        assertTrue(e.getMessage().contains("127.0.0.1:" + a) && e.getMessage().contains("127.0.0.1:" + b),
                e.getMessage());
    }

    @Test
    @Order(5)
    void aPromotionUnderWayPausesTheClientUntilTheSwitchOrTheNextCheck() {
        HaspClient client = client(HaspConfig.builder().commandTimeout(Duration.ofSeconds(5))
                .sentinel(SentinelConfig.of(RedisSentinel.MASTER_NAME, sentinelAddresses())
                        .withCheckEvery(Duration.ofMillis(500))));
        SentinelTopology topology = (SentinelTopology) ClientInternals.topology(client);
        NodeAddress master = topology.master();
        topology.pause(new NodeAddress("127.0.0.1", 1));   // as +selected-slave would: no write reaches the master now
        assertTrue(topology.knownDown("k"), "every connection left the master at once");
        CompletableFuture<Void> write = client.commands().set("paused", "1").thenApply(ok -> null);
        // No switch comes (a failover that was aborted): the next check finds the same master.
        write.join();
        assertEquals(master, topology.master());
        assertEquals("1", call(deployment.master(), "GET", "paused"));
    }

    @Test
    @Order(10)
    void aRequestedFailoverMovesCommandsAndKeepsTheHoldsTheNewMasterHas() throws Exception {
        HaspClient client = client();
        HaspLock kept = client.getLock("kept");
        kept.lock();
        CompletableFuture<HoldEnd> keptEnd = kept.holdEnd();
        RedisServer promoted = deployment.failover();
        assertTrue(Conditions.await(DEADLINE, () -> client.getLock("after").tryLock()), "a lock taken after the switch");
        assertEquals(1L, call(promoted, "EXISTS", "after"), "on the new master " + promoted);
        assertFalse(keptEnd.isDone(), "a hold the new master has stays: " + keptEnd);
        kept.unlock();
        assertEquals(HoldEnd.RELEASED, keptEnd.get(10, TimeUnit.SECONDS));
        assertEquals(0L, call(promoted, "EXISTS", "kept"));
        client.getLock("after").unlock();
    }

    @Test
    @Order(11)
    void aHoldTheNewMasterLacksEndsLostAtTheSwitchAndItsUnlockSaysSo() throws Exception {
        HaspClient client = client();
        HaspLock lock = client.getLock("forgotten");
        lock.lock();
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        // The replicas forget the grant, as if it had never reached them before a crash.
        for (RedisServer replica : deployment.replicas()) {
            call(replica, "CONFIG", "SET", "replica-read-only", "no");
            assertTrue(Conditions.await(DEADLINE, () -> call(replica, "EXISTS", "forgotten").equals(1L)));
            call(replica, "DEL", "forgotten");
        }
        try {
            deployment.failover();
            // The watchdog's own pass is 100 s away: only the check at the switch ends the hold in time.
            assertEquals(HoldEnd.LOST, end.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            HoldLostException e = assertThrows(HoldLostException.class, lock::unlock);
            assertTrue(e.getMessage().contains("forgotten") && e.getMessage().contains("gone after the sentinels"
                    + " switched the master of '" + RedisSentinel.MASTER_NAME + "'"), e.getMessage());
        } finally {
            for (RedisServer node : deployment.dataNodes()) {
                call(node, "CONFIG", "SET", "replica-read-only", "yes");
            }
        }
    }

    @Test
    @Order(12)
    void aKilledMastersWaitersAreWokenOnThePromotedReplica() throws Exception {
        HaspClient holder = client();
        HaspClient waiter = client();
        HaspLock held = holder.getLock("killed");
        held.lock();
        CompletableFuture<Void> parked = new CompletableFuture<>();
        Future<Boolean> acquired = threads.submit(() -> {
            HaspLock lock = waiter.getLock("killed");
            parked.complete(null);
            boolean got = lock.tryLock(Duration.ofSeconds(60));
            if (got) {
                lock.unlock();
            }
            return got;
        });
        parked.get(10, TimeUnit.SECONDS);
        // The holder takes turns: the waiter listens on its own turn channel.
        String turns = "hasp_lock_turn__channel:{killed}:" + waiter.id();
        assertTrue(Conditions.await(DEADLINE, () -> call(deployment.master(), "PUBSUB", "NUMSUB", turns)
                .equals(List.of(turns, 1L))), "the waiter listens on the master");
        RedisServer promoted = deployment.killMaster();
        assertTrue(Conditions.await(DEADLINE, () -> call(promoted, "PUBSUB", "NUMSUB", turns)
                .equals(List.of(turns, 1L))), "the waiter listens on the promoted replica");
        try {
            held.unlock();   // the grant may not have reached the replica before the kill
        } catch (HoldLostException lostWithTheOldMaster) {
            // reported as lost, never as a plain IllegalMonitorStateException
        }
        assertTrue(acquired.get(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the waiter got the lock on " + promoted);
    }
}
