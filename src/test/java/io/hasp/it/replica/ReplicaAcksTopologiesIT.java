package io.hasp.it.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.ReplicaAcksException;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplicaAcks} behind Sentinel and on a Redis Cluster: the {@code WAIT} goes to the master the
 * sentinels name, and on a cluster to the master of the lock's slot. Replicas stopped with
 * {@code SIGSTOP} confirm nothing: a grant is refused and rolled back; once they continue, a waiting
 * acquisition succeeds late. A confirmed hold is on the promoted replica after a {@code SENTINEL FAILOVER}
 * (the client's check at the switch keeps it) or a {@code CLUSTER FAILOVER} (a second client cannot take
 * it), and fencing tokens keep increasing across either.
 */
class ReplicaAcksTopologiesIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final ReplicaAcks ONE_REPLICA = ReplicaAcks.of(1, Duration.ofMillis(200));

    private static void signal(RedisServer node, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(node.processHandle().pid()))
                    .inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -" + signal + " " + node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String info(RedisServer server) {
        try (RedisProbe probe = server.probe()) {
            return (String) probe.call("INFO", "replication");
        }
    }

    /** The replicas {@code master} counts in a WAIT: online in its eyes (their first ACK came). */
    private static int onlineReplicas(RedisServer master) {
        return info(master).split("state=online", -1).length - 1;
    }

    private static long exists(RedisServer server, String key) {
        try (RedisProbe probe = server.probe()) {
            return (Long) probe.call("EXISTS", key);
        }
    }

    /** Before Redis 7.2 a client asking fsync confirmations (WAITAOF) is refused at start; from 7.2 it starts. */
    private static void fsyncCheckedAtStart(String uri, RedisServer node) {
        boolean hasWaitAof = node.versionAtLeast(7, 2);
        HaspConfig config = HaspConfig.builder().uri(uri).replicaAcks(ONE_REPLICA.withFsync()).build();
        if (hasWaitAof) {
            HaspClient.create(config).close();
        } else {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> HaspClient.create(config));
            assertTrue(refused.getMessage().contains("WAITAOF"), refused.getMessage());
        }
    }

    /** With the replicas stopped, an acquisition is refused and rolled back; once they continue, one succeeds late. */
    private static void refusedWhileStoppedThenLate(HaspLock lock, RedisServer master, List<RedisServer> replicas)
            throws Exception {
        replicas.forEach(replica -> signal(replica, "STOP"));
        try {
            assertThrows(ReplicaAcksException.class, () -> lock.tryLock(Duration.ofMillis(800), Duration.ofSeconds(60)));
            assertTrue(Conditions.await(DEADLINE, () -> exists(master, lock.getName()) == 0), "rolled back");
            CompletableFuture<Boolean> late = CompletableFuture.supplyAsync(() -> {
                try {
                    return lock.tryLock(Duration.ofSeconds(20), Duration.ofSeconds(60));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(Conditions.await(DEADLINE, () -> exists(master, lock.getName()) == 1), "sent, unconfirmed");
            assertFalse(late.isDone());
            replicas.forEach(replica -> signal(replica, "CONT"));
            assertTrue(late.get(30, TimeUnit.SECONDS), "confirmed once the replicas continued");
        } finally {
            replicas.forEach(replica -> signal(replica, "CONT"));
        }
    }

    @Test
    void behindSentinelAGrantIsConfirmedByTheMastersReplicasAndKeptThroughAFailover() throws Exception {
        try (RedisSentinel deployment = RedisSentinel.start()) {
            RedisServer master = deployment.master();
            assertTrue(Conditions.await(DEADLINE, () -> onlineReplicas(master) == 2));
            fsyncCheckedAtStart(deployment.uri(), master);
            HaspConfig config = HaspConfig.builder().uri(deployment.uri()).replicaAcks(ONE_REPLICA).build();
            try (HaspClient client = HaspClient.create(config)) {
                HaspLock lock = client.getLock("orders:42");
                refusedWhileStoppedThenLate(lock, master, deployment.replicas());
                // The late grant is the thread's: it was taken by the helper thread, so give it back there.
                client.getLock("orders:42").forceUnlock();

                lock.lock();
                CompletableFuture<HoldEnd> end = lock.holdEnd();
                io.hasp.lock.FencedLock fenced = client.getFencedLock("payments");
                long before = fenced.lockAndGetToken();
                fenced.unlock();
                RedisServer promoted = failOver(deployment);
                assertTrue(Conditions.await(DEADLINE, () -> exists(promoted, "orders:42") == 1),
                        "the confirmed grant is on the promoted replica");
                long renewals = client.renewalCalls();
                assertTrue(Conditions.await(DEADLINE, () -> client.renewalCalls() > renewals));
                assertFalse(end.isDone(), "the hold is kept: " + end);
                assertTrue(lock.isHeldByCurrentThread());
                lock.unlock();
                assertEquals(0L, exists(promoted, "orders:42"));
                long after = fenced.tryLockAndGetToken(Duration.ofSeconds(5), Duration.ofSeconds(60)).orElseThrow();
                assertTrue(after > before, "tokens increase across the failover: " + before + " then " + after);
                fenced.unlock();
            }
        }
    }

    @Test
    void onAClusterTheSlotsMastersReplicaConfirmsTheGrant() throws Exception {
        try (RedisCluster cluster = RedisCluster.start()) {
            fsyncCheckedAtStart(cluster.uri(), cluster.masters().get(0));
            HaspConfig config = HaspConfig.builder().uri(cluster.uri()).replicaAcks(ONE_REPLICA).build();
            try (HaspClient client = HaspClient.create(config)) {
                HaspLock lock = client.getLock("orders:42");
                RedisServer master = cluster.masterOf(io.hasp.internal.cluster.ClusterSlot.of("orders:42"));
                assertTrue(Conditions.await(DEADLINE, () -> onlineReplicas(master) == 1));
                assertTrue(lock.tryLock(Duration.ZERO, Duration.ofSeconds(60)), "confirmed by the slot's replica");
                lock.unlock();
                refusedWhileStoppedThenLate(lock, master, cluster.replicas());
                client.getLock("orders:42").forceUnlock();

                // A confirmed grant and token survive a failover of the slot's master to its replica.
                io.hasp.lock.FencedLock fenced = client.getFencedLock("orders:42");
                long before = fenced.lockAndGetToken();
                RedisServer replica = cluster.replicas().get(cluster.masters().indexOf(master));
                failOver(master, replica);
                try (HaspClient second = HaspClient.create(cluster.uri())) {
                    assertFalse(second.getLock("orders:42").tryLock(Duration.ZERO, Duration.ofSeconds(60)),
                            "the promoted replica has the confirmed grant: no second holder");
                    fenced.unlock();   // the holder's unlock, sent to the new master
                    long after = second.getFencedLock("orders:42").tryLockAndGetToken(Duration.ofSeconds(5),
                            Duration.ofSeconds(60)).orElseThrow();
                    assertTrue(after > before, "tokens increase across the failover: " + before + " then " + after);
                }
            }
        }
    }

    /**
     * A {@code SENTINEL FAILOVER} once the sentinels see the replicas up again: replicas that were stopped
     * are marked down for a moment after they continue, and the sentinels then answer {@code NOGOODSLAVE}
     * (seen on 6.2). Asked again, three times at most.
     */
    private static RedisServer failOver(RedisSentinel deployment) {
        for (int attempt = 1; ; attempt++) {
            deployment.awaitWhole();
            assertTrue(Conditions.await(DEADLINE, () -> deployment.sentinels().stream().allMatch(sentinel -> {
                try (RedisProbe probe = sentinel.probe()) {
                    String replicas = String.valueOf(probe.call("SENTINEL", "REPLICAS", RedisSentinel.MASTER_NAME));
                    return !replicas.contains("s_down") && !replicas.contains("disconnected");
                }
            })), "the sentinels see the replicas up");
            try {
                return deployment.failover();
            } catch (IllegalStateException refused) {
                if (!String.valueOf(refused.getMessage()).contains("NOGOODSLAVE") || attempt == 3) {
                    throw refused;
                }
            }
        }
    }

    /** Fails {@code master} over to {@code replica} ({@code CLUSTER FAILOVER}, asked again up to three times: 6.2 may time out). */
    private static void failOver(RedisServer master, RedisServer replica) {
        for (int attempt = 1; ; attempt++) {
            assertTrue(Conditions.await(DEADLINE, () -> info(replica).contains("master_link_status:up")));
            try (RedisProbe probe = replica.probe()) {
                assertEquals("OK", probe.call("CLUSTER", "FAILOVER"));
            }
            if (Conditions.await(Duration.ofSeconds(10),
                    () -> info(replica).contains("role:master") && info(master).contains("role:slave"))) {
                return;
            }
            assertTrue(attempt < 3, replica + " took over from " + master + " (three requests)");
        }
    }
}
