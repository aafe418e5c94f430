package io.hasp.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.lock.HaspLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Unlock messages on a real local Redis Cluster, between hasp and Redisson 4.x in cluster mode:
 * both choose the same kind of channel (sharded on a 7.0+ cluster, classic before), so each one's
 * unlock wakes the other's waiters long before the holder's lease would have run out; a mixed
 * fleet keeps a counter exact on one lock and on one write lock; and a waiter's sharded
 * subscription follows its slot to another master.
 */
class ClusterUnlockMessagesIT {

    /** Longer than any wait below: a waiter that gets the lock in time was woken by a message. */
    private static final Duration LONG_LEASE = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static RedisCluster cluster;
    private static HaspClient hasp;
    private static HaspClient otherHasp;
    private static RedissonClient redisson;
    private static ExecutorService threads;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start();
        hasp = HaspClient.create(HaspConfig.builder().uri(cluster.uri()).watchdogLease(Duration.ofSeconds(5)).build());
        otherHasp = HaspClient.create(cluster.uri());
        Config config = new Config();
        config.setLockWatchdogTimeout(5_000);
        var servers = config.useClusterServers();
        for (RedisServer master : cluster.masters()) {
            servers.addNodeAddress("redis://" + master.host() + ":" + master.port());
        }
        redisson = Redisson.create(config);
        threads = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        try {
            threads.shutdownNow();
            if (redisson != null) {
                redisson.shutdown();
            }
            if (hasp != null) {
                hasp.close();
            }
            if (otherHasp != null) {
                otherHasp.close();
            }
        } finally {
            cluster.close();
        }
    }

    /** What Redisson 4.x concludes from its own probe of this cluster: sharded channels or not. */
    private static boolean redissonShards() {
        return ((Redisson) redisson).getCommandExecutor().getConnectionManager().getSubscribeService()
                .isShardingSupported();
    }

    private static boolean serverHasShardedChannels() {
        try (RedisProbe probe = cluster.masters().get(0).probe()) {
            return !(probe.call("PUBSUB", "SHARDNUMSUB", "0") instanceof RedisProbe.Error);
        }
    }

    private static Object call(RedisServer node, String... command) {
        try (RedisProbe probe = node.probe()) {
            return probe.call(command);
        }
    }

    private static int slotOf(String key) {
        return ((Long) call(cluster.masters().get(0), "CLUSTER", "KEYSLOT", key)).intValue();
    }

    /** Subscribers of {@code channel} on {@code node}: sharded ones on a sharding cluster, else classic ones. */
    private static long subscribers(RedisServer node, String channel) {
        List<?> reply = (List<?>) call(node, "PUBSUB", redissonShards() ? "SHARDNUMSUB" : "NUMSUB", channel);
        return (Long) reply.get(1);
    }

    private static long subscribersOnAnyNode(String channel) {
        long total = 0;
        for (RedisServer master : cluster.masters()) {
            total += subscribers(master, channel);
        }
        return total;
    }

    /**
     * Waits until a fresh waiter on lock {@code name} is parked: subscribed to {@code channel}, and
     * its second attempt (the one made once subscribed) sent, so that only a message or the
     * holder's lease can give it the lock now.
     */
    private static void awaitParked(String name, String channel, long scriptCallsBefore) {
        RedisServer master = cluster.masterOf(slotOf(name));
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> subscribersOnAnyNode(channel) >= 1
                        && ClusterLockIT.scriptCalls(master) >= scriptCallsBefore + 2),
                "a waiter subscribed to " + channel + " and tried again");
    }

    private static <T> Future<T> inThread(Callable<T> task) {
        return threads.submit(task);
    }

    @Test
    void haspChoosesTheChannelsRedissonChooses() {
        assertEquals(serverHasShardedChannels(), redissonShards(), "Redisson's own probe");
        assertEquals(redissonShards() ? ChannelKind.SHARDED : ChannelKind.CLASSIC, ClientInternals.topology(hasp).channelKind());
    }

    @Test
    void aRedissonUnlockWakesAHaspWaiter() throws Exception {
        String name = "interop:redisson-unlocks";
        String channel = "redisson_lock__channel:{" + name + "}";
        org.redisson.api.RLock theirs = redisson.getLock(name);
        assertTrue(theirs.tryLock(0, LONG_LEASE.toMillis(), TimeUnit.MILLISECONDS));
        long calls = ClusterLockIT.scriptCalls(cluster.masterOf(slotOf(name)));
        Future<Boolean> waiter = inThread(() -> hasp.getLock(name).tryLock(WAIT, Duration.ofSeconds(10)));
        awaitParked(name, channel, calls);
        if (redissonShards()) {
            assertEquals(1, subscribers(cluster.masterOf(slotOf(channel)), channel),
                    "hasp's sharded subscription is on the master of the channel's slot");
        }
        theirs.unlock();
        assertTrue(waiter.get(30, TimeUnit.SECONDS), "woken by Redisson's unlock message, not by the lease running out");
        hasp.getLock(name).forceUnlock();
    }

    @Test
    void aHaspUnlockWakesARedissonWaiter() throws Exception {
        String name = "interop:hasp-unlocks";
        HaspLock mine = hasp.getLock(name);
        assertTrue(mine.tryLock(Duration.ZERO, LONG_LEASE));
        long calls = ClusterLockIT.scriptCalls(cluster.masterOf(slotOf(name)));
        Future<Boolean> waiter = inThread(() -> redisson.getLock(name).tryLock(WAIT.toMillis(), 10_000, TimeUnit.MILLISECONDS));
        awaitParked(name, "redisson_lock__channel:{" + name + "}", calls);
        mine.unlock();
        assertTrue(waiter.get(30, TimeUnit.SECONDS), "woken by hasp's unlock message, not by the lease running out");
        redisson.getLock(name).forceUnlock();
    }

    @Test
    void writeLockUnlocksWakeEachOthersWaiters() throws Exception {
        String name = "interop:rw";
        String channel = "redisson_rwlock:{" + name + "}";
        HaspLock haspWrite = HaspReadWriteLocks.get(hasp, name).writeLock();
        assertTrue(haspWrite.tryLock(Duration.ZERO, LONG_LEASE));
        long calls = ClusterLockIT.scriptCalls(cluster.masterOf(slotOf(name)));
        Future<Boolean> redissonWaiter = inThread(() -> redisson.getReadWriteLock(name).writeLock()
                .tryLock(WAIT.toMillis(), LONG_LEASE.toMillis(), TimeUnit.MILLISECONDS));
        awaitParked(name, channel, calls);
        haspWrite.unlock();
        assertTrue(redissonWaiter.get(30, TimeUnit.SECONDS), "Redisson's writer woken by hasp's write unlock");

        long callsAfter = ClusterLockIT.scriptCalls(cluster.masterOf(slotOf(name)));
        Future<Boolean> haspWaiter = inThread(() -> HaspReadWriteLocks.get(otherHasp, name).writeLock()
                .tryLock(WAIT, Duration.ofSeconds(10)));
        awaitParked(name, channel, callsAfter);
        // The Redisson holder is the thread that locked: unlock as it, from any thread.
        redisson.getReadWriteLock(name).writeLock().forceUnlock();
        assertTrue(haspWaiter.get(30, TimeUnit.SECONDS), "hasp's writer woken by Redisson's release");
        HaspReadWriteLocks.get(otherHasp, name).writeLock().forceUnlock();
    }

    @Test
    void aMixedFleetKeepsACounterExactOnOneLock() throws Exception {
        assertMixedFleetExact("interop:count", useHasp -> useHasp ? hasp.getLock("interop:count")
                : redisson.getLock("interop:count"));
    }

    @Test
    void aMixedFleetKeepsACounterExactOnOneWriteLock() throws Exception {
        assertMixedFleetExact("interop:rwcount", useHasp -> useHasp
                ? HaspReadWriteLocks.get(hasp, "interop:rwcount").writeLock()
                : redisson.getReadWriteLock("interop:rwcount").writeLock());
    }

    /** Six threads, hasp and Redisson taking turns, each incrementing a counter 40 times under {@code lockOf}'s lock. */
    private static void assertMixedFleetExact(String name, Function<Boolean, Lock> lockOf) throws Exception {
        String counter = "{" + name + "}:value";
        hasp.commands().set(counter, "0").get(10, TimeUnit.SECONDS);
        List<Callable<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            Lock lock = lockOf.apply(t % 2 == 0);
            workers.add(() -> {
                for (int i = 0; i < 40; i++) {
                    lock.lock();
                    try {
                        increment(counter);
                    } finally {
                        lock.unlock();
                    }
                }
                return null;
            });
        }
        runAll(workers);
        assertEquals("240", hasp.commands().get(counter).get(10, TimeUnit.SECONDS));
    }

    @Test
    void aWaitersSubscriptionFollowsItsSlotToAnotherMaster() throws Exception {
        String name = "interop:moving-channel";
        // The holder is a hasp client: the waiter listens for its client's turn (on a Redis 7 cluster, where
        // processes take turns), or on the lock's unlock channel.
        String channel = redissonShards() ? "hasp_lock_turn__channel:{" + name + "}:" + hasp.id()
                : "redisson_lock__channel:{" + name + "}";
        int slot = slotOf(name);
        assertEquals(slot, slotOf(channel));
        RedisServer source = cluster.masterOf(slot);
        RedisServer target = cluster.masters().get((cluster.masters().indexOf(source) + 1) % 3);
        HaspLock held = otherHasp.getLock(name);
        assertTrue(held.tryLock(Duration.ZERO, LONG_LEASE));
        long calls = ClusterLockIT.scriptCalls(source);
        Future<Boolean> waiter = inThread(() -> hasp.getLock(name).tryLock(Duration.ofSeconds(40), Duration.ofSeconds(10)));
        awaitParked(name, channel, calls);

        // Move the slot, with the lock's keys, to the next master.
        assertEquals("OK", call(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", RedisCluster.nodeId(source)));
        assertEquals("OK", call(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", RedisCluster.nodeId(target)));
        // Every key of the slot goes: the lock's hash and its line, where the waiter's client stands.
        List<String> migrate = new ArrayList<>(List.of("MIGRATE", target.host(), Integer.toString(target.port()), "",
                "0", "5000", "KEYS"));
        for (Object key : (List<?>) call(source, "CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100")) {
            migrate.add((String) key);
        }
        assertEquals("OK", call(source, migrate.toArray(String[]::new)));
        for (RedisServer master : cluster.masters()) {
            assertEquals("OK", call(master, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", RedisCluster.nodeId(target)));
        }
        if (redissonShards()) {
            assertTrue(Conditions.await(Duration.ofSeconds(15), () -> subscribers(target, channel) == 1),
                    "the waiter subscribed again on the slot's new master");
            assertEquals(0, subscribers(source, channel), "the source dropped the channel with its slot");
        }
        assertFalse(waiter.isDone(), "still waiting: the lock is held");
        held.unlock();
        assertTrue(waiter.get(30, TimeUnit.SECONDS), "woken by the unlock published on the slot's new master");
        hasp.getLock(name).forceUnlock();
    }

    private static void increment(String counter) throws Exception {
        long value = Long.parseLong(hasp.commands().get(counter).get(10, TimeUnit.SECONDS));
        hasp.commands().set(counter, Long.toString(value + 1)).get(10, TimeUnit.SECONDS);
    }

    private static void runAll(List<Callable<Void>> workers) throws Exception {
        List<Future<Void>> running = new ArrayList<>();
        for (Callable<Void> worker : workers) {
            running.add(threads.submit(worker));
        }
        for (Future<Void> worker : running) {
            worker.get(120, TimeUnit.SECONDS);
        }
    }
}
