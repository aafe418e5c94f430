package io.hasp.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.inspect.LockInfo;
import io.hasp.internal.cluster.ClusterSlot;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * hasp's locks on a real local Redis Cluster (3 masters, 3 replicas), created from a
 * {@code redis-cluster://} seed list: commands and scripts reach their slot's master, waiters are
 * woken across clients, a counter stays exact, the watchdog renews 10,000 locks spread over the
 * slots with a few calls per master (no CROSSSLOT), and the read/write lock works there too.
 */
class ClusterLockIT {

    private static RedisCluster cluster;
    private static HaspClient client;
    private static HaspClient other;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start();
        client = HaspClient.create(HaspConfig.builder().uri(cluster.uri()).watchdogLease(Duration.ofSeconds(6)).build());
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

    @Test
    void plainCommandsReachEveryMaster() throws Exception {
        Set<Integer> masters = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            String key = "cluster:plain:" + i;
            assertEquals("OK", client.commands().set(key, "v" + i).get(10, TimeUnit.SECONDS));
            assertEquals("v" + i, other.commands().get(key).get(10, TimeUnit.SECONDS));
            for (int m = 0; m < 3; m++) {
                try (RedisProbe probe = cluster.masters().get(m).probe()) {
                    if (Long.valueOf(1).equals(probe.call("EXISTS", key))) {
                        masters.add(m);
                    }
                }
            }
        }
        assertEquals(Set.of(0, 1, 2), masters, "keys landed on every master");
    }

    @Test
    void inspectReadsAHeldLockAndItsWaitingProcessOnItsMaster() throws Exception {
        String name = "cluster:inspect";
        HaspLock held = client.getLock(name);
        held.lock();
        HaspLock elsewhere = other.getLock(name);
        LockOwner waiter = elsewhere.owner(9);
        CompletableFuture<Void> waiting = elsewhere.lockAsync(waiter);
        try {
            if (Integer.parseInt(cluster.masters().get(0).version().split("\\.")[0]) >= 7) {
                // Sharded channels live on the lock's master, which counts their listeners. Before 7.0 a cluster's
                // channels are broadcast, and the waiter may listen on any node: the master does not see it.
                assertTrue(Conditions.await(Duration.ofSeconds(20), () -> {
                    LockInfo info = client.inspector().inspect(name);
                    return info.waitingProcesses().equals(List.of(other.id())) && info.listeners() >= 1;
                }), "the waiting process, listening on its sharded turn channel: " + client.inspector().inspect(name));
            }
            LockInfo info = client.inspector().inspect(name);
            assertEquals(LockInfo.Kind.REENTRANT, info.kind());
            assertEquals(client.id(), info.holders().get(0).clientId());
        } finally {
            held.unlock();
        }
        waiting.get(30, TimeUnit.SECONDS);
        elsewhere.unlockAsync(waiter).get(10, TimeUnit.SECONDS);
        assertEquals(LockInfo.Kind.NONE, client.inspector().inspect(name).kind());
    }

    @Test
    void aWaiterInAnotherClientIsWokenByTheUnlock() throws Exception {
        HaspLock held = client.getLock("cluster:wake");
        held.lock();
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return other.getLock("cluster:wake").tryLock(Duration.ofSeconds(20), Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertFalse(waiting.isDone());
        held.unlock();
        assertTrue(waiting.get(30, TimeUnit.SECONDS), "the waiter got the lock");
        assertTrue(other.getLock("cluster:wake").isLocked());
        other.getLock("cluster:wake").forceUnlock();
    }

    @Test
    void twoClientsKeepACounterExact() throws Exception {
        String counter = "{cluster:count}:value";
        client.commands().set(counter, "0").get(10, TimeUnit.SECONDS);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                HaspClient mine = t % 2 == 0 ? client : other;
                workers.add(threads.submit(() -> {
                    HaspLock lock = mine.getLock("cluster:count");
                    for (int i = 0; i < 50; i++) {
                        lock.lock();
                        try {
                            long value = Long.parseLong(mine.commands().get(counter).get(10, TimeUnit.SECONDS));
                            mine.commands().set(counter, Long.toString(value + 1)).get(10, TimeUnit.SECONDS);
                        } finally {
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals("400", client.commands().get(counter).get(10, TimeUnit.SECONDS));
    }

    @Test
    void tenThousandWatchdogLocksAreRenewedWithAFewCallsPerMaster() throws Exception {
        int count = 10_000;
        List<HaspLock> locks = new ArrayList<>(count);
        List<LockOwner> owners = new ArrayList<>(count);
        Map<RedisServer, Integer> locksPerMaster = new HashMap<>();
        Set<Integer> slots = new HashSet<>();
        List<CompletableFuture<Void>> locking = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            HaspLock lock = client.getLock("cluster:watchdog:" + i);
            LockOwner owner = lock.owner(1);
            locks.add(lock);
            owners.add(owner);
            int slot = ClusterSlot.of(lock.getName());
            slots.add(slot);
            locksPerMaster.merge(cluster.masterOf(slot), 1, Integer::sum);
            locking.add(lock.lockAsync(owner));
        }
        CompletableFuture.allOf(locking.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
        assertTrue(slots.size() > 7_000, "spread over " + slots.size() + " slots");
        assertEquals(3, locksPerMaster.size(), "on every master");
        try {
            // A pass renews, on each master, its locks in batches of 100 (of one kind): a few calls,
            // where one call per slot would be thousands.
            Map<RedisServer, Long> before = new HashMap<>();
            for (RedisServer master : cluster.masters()) {
                before.put(master, scriptCalls(master));
            }
            long callsPerPass = 0;
            for (int onMaster : locksPerMaster.values()) {
                callsPerPass += (onMaster + 99) / 100;
            }
            long renewalsBefore = client.renewalCalls();
            long target = renewalsBefore + 3 * callsPerPass;
            // Three passes (one every 2 s): the 6 s lease would have run out by then. A 1.5 s lease lost
            // locks when a 2-core machine stalled the client for a pass (1 run in 4), and a 3 s lease once
            // on a machine three times slower than usual.
            assertTrue(Conditions.await(Duration.ofSeconds(30), () -> client.renewalCalls() >= target),
                    "three renewal passes");
            // Wait until the masters ran what was sent so far.
            long sent = client.renewalCalls() - renewalsBefore;
            assertTrue(Conditions.await(Duration.ofSeconds(30), () -> cluster.masters().stream()
                    .mapToLong(m -> scriptCalls(m) - before.get(m)).sum() >= sent), "the masters ran the renewals sent");
            for (RedisServer master : cluster.masters()) {
                long perPass = (locksPerMaster.get(master) + 99) / 100;
                long calls = scriptCalls(master) - before.get(master);
                // One call per slot would be thousands per pass on each master.
                assertTrue(calls >= 2 * perPass && calls <= 5 * perPass, master + ": " + calls
                        + " renewal calls in about three passes over " + locksPerMaster.get(master) + " locks");
                assertEquals(0, errors(master, "CROSSSLOT"), "no CROSSSLOT on " + master);
            }
            for (int i = 0; i < count; i++) {
                assertFalse(locks.get(i).holdEnd(owners.get(i)).isDone(), "lock " + i + " was not lost");
            }
            assertTrue(locks.get(0).isHeldByAsync(owners.get(0)).get(10, TimeUnit.SECONDS));
            assertTrue(locks.get(count - 1).remainTimeToLive() > 0);
            // The inspector lists them all with SCAN on every master, never KEYS, and the client's own records agree.
            Set<String> listed = new HashSet<>(client.inspector().locksAsync("cluster:watchdog:*", 100_000)
                    .get(60, TimeUnit.SECONDS));
            assertEquals(count, listed.size());
            assertTrue(listed.contains("cluster:watchdog:0") && listed.contains("cluster:watchdog:" + (count - 1)));
            assertEquals(100, client.inspector().locks("cluster:watchdog:*", 100).size(), "the limit bounds it");
            for (RedisServer master : cluster.masters()) {
                try (RedisProbe probe = master.probe()) {
                    assertEquals(0, probe.commandCalls("keys"), "no KEYS on " + master);
                    assertTrue(probe.commandCalls("scan") > 0, "SCAN on " + master);
                }
            }
            assertEquals(count, client.inspector().holds().stream().filter(h -> h.name().startsWith("cluster:watchdog:"))
                    .count());
        } finally {
            // In runs of 1,000: a hold is not renewed once its unlock has begun, and 10,000 unlocks queued at once
            // took up to 4 s of a 6 s lease on this 2-core machine, so the last of them found their lease run out.
            for (int from = 0; from < count; from += 1_000) {
                List<CompletableFuture<Void>> unlocking = new ArrayList<>(1_000);
                for (int i = from; i < Math.min(count, from + 1_000); i++) {
                    unlocking.add(locks.get(i).unlockAsync(owners.get(i)));
                }
                CompletableFuture.allOf(unlocking.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** Script calls (EVAL and EVALSHA) so far on {@code node}. */
    static long scriptCalls(RedisServer node) {
        try (RedisProbe probe = node.probe()) {
            return probe.commandCalls("eval", "evalsha");
        }
    }

    /** Error replies with {@code code} so far on {@code node}. */
    static long errors(RedisServer node, String code) {
        try (RedisProbe probe = node.probe()) {
            return probe.errorReplies(code);
        }
    }

    @Test
    void theReadWriteLockWorksOnTheCluster() throws Exception {
        HaspReadWriteLock mine = HaspReadWriteLocks.get(client, "cluster:rw");
        HaspReadWriteLock theirs = HaspReadWriteLocks.get(other, "cluster:rw");
        mine.readLock().lock();
        CompletableFuture<Boolean> reader = CompletableFuture.supplyAsync(() -> theirs.readLock().tryLock());
        assertTrue(reader.get(10, TimeUnit.SECONDS), "readers share");
        CompletableFuture<Boolean> writer = CompletableFuture.supplyAsync(() -> {
            try {
                return theirs.writeLock().tryLock(Duration.ofMillis(200), Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertFalse(writer.get(10, TimeUnit.SECONDS), "a writer waits for the readers");
        mine.readLock().unlock();
        theirs.readLock().forceUnlock();
        assertFalse(mine.isLocked());
    }

    @Test
    void aSeedThatIsNoClusterIsToldApart() {
        try (RedisServer single = RedisServer.builder().name("not-a-cluster").start()) {
            RedisConnectionException e = assertThrows(RedisConnectionException.class,
                    () -> HaspClient.create("redis-cluster://" + single.host() + ":" + single.port()).close());
            assertTrue(e.getMessage().contains("no cluster topology from any seed"), e.getMessage());
            assertTrue(e.getMessage().toLowerCase().contains("cluster support disabled"), e.getMessage());
        }
    }
}
