package io.hasp.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.cluster.ClusterSlot;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A lock whose slot migrates while it is held and used: during the migration its acquire follows
 * ASK to the importing node, its unlock waits out the split slot (TRYAGAIN) and completes once the
 * slot has moved, afterwards everything follows MOVED; the hold count stays exact (no acquire or
 * unlock counted twice) and another client is excluded throughout.
 */
class ClusterMigrationIT {

    private static RedisCluster cluster;
    private static HaspClient client;
    private static HaspClient other;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start();
        client = HaspClient.create(cluster.uri());
        other = HaspClient.create(cluster.uri());
    }

    @AfterAll
    static void stop() {
        try {
            client.close();
            other.close();
        } finally {
            cluster.close();
        }
    }

    private static int slotOf(String key) {
        try (RedisProbe probe = cluster.masters().get(0).probe()) {
            return ((Long) probe.call("CLUSTER", "KEYSLOT", key)).intValue();
        }
    }

    private static Object call(RedisServer node, String... command) {
        try (RedisProbe probe = node.probe()) {
            return probe.call(command);
        }
    }

    @Test
    void aHeldLockFollowsItsSlotThroughAskThenMoved() throws Exception {
        String name = "migrating-lock";
        int slot = slotOf(name);
        RedisServer source = cluster.masterOf(slot);
        RedisServer target = cluster.masters().get((cluster.masters().indexOf(source) + 1) % 3);
        HaspLock lock = client.getLock(name);
        LockOwner owner = lock.owner(Long.MAX_VALUE - 7);
        lock.lockAsync(owner).get(10, TimeUnit.SECONDS);
        assertEquals("1", call(source, "HGET", name, owner.field()));

        // Start the migration and move the lock's hash: the slot still belongs to the source.
        assertEquals("OK", call(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", RedisCluster.nodeId(source)));
        assertEquals("OK", call(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", RedisCluster.nodeId(target)));
        assertEquals("OK", call(source, "MIGRATE", target.host(), Integer.toString(target.port()), name, "0", "5000"));

        // A re-entry is sent to the source, which answers ASK; its script also names the lock's line and turn,
        // keys that do not exist (nobody waits), so while the slot is split between the nodes the importing node
        // answers TRYAGAIN, and the re-entry is retried until the migration completes.
        CompletableFuture<Void> reentry = lock.lockAsync(owner);
        Object atSource = call(source, "EXISTS", name);
        assertTrue(atSource instanceof RedisProbe.Error && ((RedisProbe.Error) atSource).code().equals("ASK"),
                "the source no longer has the key and sends its clients on: " + atSource);
        HaspLock theirs = other.getLock(name);
        assertFalse(theirs.tryLock(Duration.ofMillis(100), Duration.ofSeconds(10)), "still excluded during the migration");
        assertFalse(reentry.isDone(), "the re-entry waits for the migration");
        for (RedisServer master : cluster.masters()) {
            assertEquals("OK", call(master, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", RedisCluster.nodeId(target)));
        }
        reentry.get(10, TimeUnit.SECONDS);   // MOVED to the slot's new master
        assertEquals("2", call(target, "HGET", name, owner.field()), "counted once, on the slot's new master");

        lock.unlockAsync(owner).get(10, TimeUnit.SECONDS);
        assertTrue(lock.isHeldBy(owner), "one hold left");
        lock.unlockAsync(owner).get(10, TimeUnit.SECONDS);
        assertTrue(theirs.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(10)), "free for the other client");
        assertTrue(theirs.isHeldByCurrentThread(), "held on the new master, reached through MOVED");
        assertEquals(1, theirs.getHoldCount());
        theirs.unlock();
        assertFalse(lock.isLocked());
        assertEquals(0L, call(target, "EXISTS", name));
    }

    @Test
    void theWatchdogKeepsALockWhoseSlotIsMigratingAndItsNeighbours() throws Exception {
        try (HaspClient watched = HaspClient.create(HaspConfig.builder().uri(cluster.uri())
                .watchdogLease(Duration.ofMillis(1_500)).build())) {
            String name = "migrating-watchdog";
            int slot = slotOf(name);
            RedisServer source = cluster.masterOf(slot);
            RedisServer target = cluster.masters().get((cluster.masters().indexOf(source) + 1) % 3);
            String neighbour = null;
            for (int i = 0; neighbour == null; i++) {
                int other = ClusterSlot.of(name + ":neighbour:" + i);
                if (other != slot && cluster.masterOf(other) == source) {
                    neighbour = name + ":neighbour:" + i;   // same master, another slot: the same renewal call
                }
            }
            HaspLock moving = watched.getLock(name);
            HaspLock staying = watched.getLock(neighbour);
            LockOwner owner = moving.owner(1);
            moving.lockAsync(owner).get(10, TimeUnit.SECONDS);
            staying.lockAsync(owner).get(10, TimeUnit.SECONDS);

            // Half-migrate the slot: the hash is on the target, the slot still the source's.
            assertEquals("OK", call(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", RedisCluster.nodeId(source)));
            assertEquals("OK", call(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", RedisCluster.nodeId(target)));
            assertEquals("OK", call(source, "MIGRATE", target.host(), Integer.toString(target.port()), name, "0", "5000"));
            // Four passes or more, one every 500 ms: the 1.5 s lease runs out unless they renew it.
            long before = watched.renewalCalls();
            assertTrue(Conditions.await(Duration.ofSeconds(20), () -> watched.renewalCalls() >= before + 4
                    || moving.holdEnd(owner).isDone() || staying.holdEnd(owner).isDone()), "renewal passes");
            assertFalse(moving.holdEnd(owner).isDone(), "the migrating lock is still held");
            assertFalse(staying.holdEnd(owner).isDone(), "its neighbour in the same renewal call too");
            try (RedisProbe probe = target.probe()) {
                probe.call("ASKING");
                assertTrue((Long) probe.call("PTTL", name) > 0, "renewed on the importing node");
            }

            for (RedisServer master : cluster.masters()) {
                assertEquals("OK", call(master, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", RedisCluster.nodeId(target)));
            }
            long after = watched.renewalCalls();
            assertTrue(Conditions.await(Duration.ofSeconds(20), () -> watched.renewalCalls() >= after + 4), "renewal passes");
            assertTrue(moving.isHeldByAsync(owner).get(10, TimeUnit.SECONDS), "held on its new master");
            assertTrue(staying.isHeldByAsync(owner).get(10, TimeUnit.SECONDS));
            assertFalse(moving.holdEnd(owner).isDone());
            moving.unlockAsync(owner).get(10, TimeUnit.SECONDS);
            staying.unlockAsync(owner).get(10, TimeUnit.SECONDS);
            assertFalse(moving.isLocked());
        }
    }
}
