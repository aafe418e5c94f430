package io.hasp.it.sentinel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.Replies;
import io.hasp.ReplicaAcks;
import io.hasp.Script;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldLostException;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Fleets on the fixture's Sentinel deployment (a master, 2 replicas, 3 sentinels): workers increment a
 * plain counter (GET, then SET of the next value) under one lock, retrying what fails, while the master
 * is failed over ({@code SENTINEL FAILOVER}) or killed ({@code kill -9}) mid-run. Every worker must
 * finish its increments (none dies, none hangs: waiters parked at the switch are woken on the new
 * master) and no hasp unlock may answer a plain {@code IllegalMonitorStateException}. What a switch
 * costs is measured and printed, not asserted: the updates lost in the old master's window (its writes
 * after the promotion are discarded when it becomes a replica), the holds reported lost, and the
 * window itself, from the sentinels' announcement to the last write a fleet sent the old master
 * ({@code MONITOR} on it), for hasp beside Redisson 4.x in sentinel mode in the same run.
 */
class SentinelFleetIT {

    private static final int THREADS_PER_CLIENT = 2;
    /** Increments each library's workers make before the switch, and again after it was announced. */
    private static final int INCREMENTS = 200;
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    private static RedisSentinel deployment;
    private final List<AutoCloseable> opened = new ArrayList<>();
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
    void closeAll() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS), "workers stopped");
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        deployment.dataNodes().stream().filter(node -> !node.isRunning()).forEach(RedisServer::restart);
        deployment.awaitWhole();   // the old master a replica again before the next test fails over
    }

    /** One library's view of the lock and the counter, as a worker uses them. */
    private interface Fleet {
        void lock();

        /** Whether the calling thread holds the lock: a lock call that failed may have taken it. */
        boolean heldByMe();

        void unlock();

        String get(String key);

        void set(String key, String value);
    }

    private Fleet hasp() {
        return hasp(ReplicaAcks.NONE);
    }

    /** The counter's SET as a script, so that with replica acknowledgements it waits for them too. */
    private static final Script SET = Script.of("fleet_set", "return redis.call('set', KEYS[1], ARGV[1])");

    private Fleet hasp(ReplicaAcks acks) {
        HaspClient client = HaspClient.create(HaspConfig.builder().uri(deployment.uri()).replicaAcks(acks)
                .commandTimeout(Duration.ofSeconds(2)).watchdogLease(Duration.ofSeconds(10)).build());
        opened.add(client);
        HaspLock lock = client.getLock("fleet:lock");
        return new Fleet() {
            @Override
            public void lock() {
                lock.lock();
            }

            @Override
            public boolean heldByMe() {
                return lock.isHeldByCurrentThread();
            }

            @Override
            public void unlock() {
                lock.unlock();
            }

            @Override
            public String get(String key) {
                return client.commands().get(key).join();
            }

            @Override
            public void set(String key, String value) {
                if (acks.enabled()) {
                    client.commands().evalsha(SET, Replies.OK, List.of(key), value).join();
                } else {
                    client.commands().set(key, value).join();
                }
            }
        };
    }

    private Fleet redisson() {
        Config config = new Config();
        var sentinels = config.useSentinelServers().setMasterName(RedisSentinel.MASTER_NAME)
                .setCheckSentinelsList(false).setTimeout(2_000);
        for (RedisServer sentinel : deployment.sentinels()) {
            sentinels.addSentinelAddress("redis://" + sentinel.host() + ":" + sentinel.port());
        }
        config.setLockWatchdogTimeout(10_000);
        RedissonClient client = Redisson.create(config);
        opened.add(client::shutdown);
        var lock = client.getLock("fleet:lock");
        return new Fleet() {
            @Override
            public void lock() {
                lock.lock();
            }

            @Override
            public boolean heldByMe() {
                return lock.isHeldByCurrentThread();
            }

            @Override
            public void unlock() {
                lock.unlock();
            }

            @Override
            public String get(String key) {
                return client.<String>getBucket(key, StringCodec.INSTANCE).get();
            }

            @Override
            public void set(String key, String value) {
                client.<String>getBucket(key, StringCodec.INSTANCE).set(value);
            }
        };
    }

    /** What the workers of one library saw. */
    private static final class Tally {
        final AtomicInteger done = new AtomicInteger();
        final AtomicInteger holdsLost = new AtomicInteger();
        final AtomicInteger plainMonitorErrors = new AtomicInteger();
        final AtomicInteger retries = new AtomicInteger();

        @Override
        public String toString() {
            return done + " increments done, " + holdsLost + " holds reported lost at unlock, "
                    + plainMonitorErrors + " plain IllegalMonitorStateExceptions at unlock, " + retries + " retries";
        }
    }

    /** A worker: locked increments until {@code stop}, each call retried until it goes through. */
    private Future<?> worker(Fleet fleet, String counter, Tally tally, AtomicBoolean stop) {
        return threads.submit(() -> {
            while (!stop.get() && !Thread.currentThread().isInterrupted()) {
                retry(tally, () -> {
                    if (!fleet.heldByMe()) {
                        fleet.lock();
                    }
                    return null;
                });
                try {
                    String text = retry(tally, () -> fleet.get(counter));
                    long value = text == null ? 0 : Long.parseLong(text);
                    retry(tally, () -> {
                        fleet.set(counter, Long.toString(value + 1));   // an absolute value: a re-sent SET is harmless
                        return null;
                    });
                } finally {
                    try {
                        fleet.unlock();
                    } catch (HoldLostException lost) {
                        tally.holdsLost.incrementAndGet();
                    } catch (IllegalMonitorStateException plain) {
                        tally.plainMonitorErrors.incrementAndGet();
                    } catch (RuntimeException failed) {
                        tally.retries.incrementAndGet();   // the lease ends the hold
                    }
                }
                tally.done.incrementAndGet();
            }
        });
    }

    private static <T> T retry(Tally tally, Supplier<T> call) {
        for (;;) {
            try {
                return call.get();
            } catch (RuntimeException failed) {
                tally.retries.incrementAndGet();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));   // the worker's backoff
                if (Thread.currentThread().isInterrupted()) {
                    throw failed;
                }
            }
        }
    }

    private static long counter(String key) {
        try (RedisProbe probe = deployment.master().probe()) {
            Object value = probe.call("GET", key);
            return value == null ? 0 : Long.parseLong((String) value);
        }
    }

    private static int done(List<Tally> tallies) {
        return tallies.stream().mapToInt(t -> t.done.get()).sum();
    }

    /**
     * Runs {@code fleets} (two threads each) through {@code mid}: started once they made
     * {@code INCREMENTS} increments, and stopped once they made as many again after the sentinels
     * announced the switch, so that the work spans the whole failover.
     */
    private String run(String counter, Runnable mid, boolean watchOldMaster, List<Fleet> fleets, List<Tally> tallies)
            throws Exception {
        RedisServer oldMaster = deployment.master();
        RedisServer sentinel = deployment.sentinels().get(0);
        AtomicBoolean stop = new AtomicBoolean();
        try (SentinelWatchers.SentinelEvents events = new SentinelWatchers.SentinelEvents(sentinel.host(), sentinel.port());
                SentinelWatchers.WriteLog writes = watchOldMaster
                        ? new SentinelWatchers.WriteLog(oldMaster.host(), oldMaster.port()) : null) {
            List<Future<?>> workers = new ArrayList<>();
            for (int f = 0; f < fleets.size(); f++) {
                for (int t = 0; t < THREADS_PER_CLIENT; t++) {
                    workers.add(worker(fleets.get(f), counter, tallies.get(f), stop));
                }
            }
            assertTrue(Conditions.await(DEADLINE, () -> done(tallies) >= INCREMENTS), "work before the switch");
            mid.run();
            assertTrue(Conditions.await(DEADLINE, () -> events.millis("+switch-master") > 0), "a switch announced");
            int[] before = tallies.stream().mapToInt(t -> t.done.get()).toArray();
            // Every fleet goes on after the switch: waiters parked at it were woken on the new master.
            assertTrue(Conditions.await(DEADLINE, () -> IntStream.range(0, before.length)
                    .allMatch(f -> tallies.get(f).done.get() >= before[f] + INCREMENTS / 4)), "work after the switch: "
                    + tallies);
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);   // none dies, none hangs
            }
            long switched = events.millis("+switch-master");
            long promoting = events.millis("+failover-state-send-slaveof-noone");
            long value = counter(counter);
            int acknowledged = done(tallies);
            String report = counter + ": " + value + " of " + acknowledged + " acknowledged increments ("
                    + (acknowledged - value) + " lost); the switch announced "
                    + (promoting > 0 ? (switched - promoting) + " ms after the sentinel began the promotion" : "");
            if (writes != null) {
                report += "; writes the old master took after the promotion began: "
                        + (promoting > 0 ? writes.writesAfter(promoting) : "?") + ", after the announcement: "
                        + writes.writesAfter(switched) + ", the last " + Math.max(0, writes.lastWriteMillis() - switched)
                        + " ms after it";
            }
            for (int f = 0; f < tallies.size(); f++) {
                report += "; fleet " + f + ": " + tallies.get(f);
            }
            System.out.println("[sentinel fleet] " + report);
            return report;
        }
    }

    @Test
    void twoHaspClientsGoOnThroughARequestedFailover() throws Exception {
        List<Tally> tallies = List.of(new Tally(), new Tally());
        run("fleet:failover:hasp", deployment::failover, true, List.of(hasp(), hasp()), tallies);
        for (Tally tally : tallies) {
            assertEquals(0, tally.plainMonitorErrors.get(), "a hold lost at the switch is reported as lost: " + tally);
        }
    }

    @Test
    void aMixedFleetWithRedissonGoesOnThroughARequestedFailover() throws Exception {
        List<Tally> tallies = List.of(new Tally(), new Tally());
        run("fleet:failover:mixed", deployment::failover, true, List.of(hasp(), redisson()), tallies);
        assertEquals(0, tallies.get(0).plainMonitorErrors.get(), "hasp's workers: " + tallies.get(0));
    }

    @Test
    void redissonAloneThroughARequestedFailoverForComparison() throws Exception {
        List<Tally> tallies = List.of(new Tally(), new Tally());
        run("fleet:failover:redisson", deployment::failover, true, List.of(redisson(), redisson()), tallies);
    }

    @Test
    void twoHaspClientsGoOnThroughAKilledMaster() throws Exception {
        List<Tally> tallies = List.of(new Tally(), new Tally());
        run("fleet:killed:hasp", deployment::killMaster, false, List.of(hasp(), hasp()), tallies);
        for (Tally tally : tallies) {
            assertEquals(0, tally.plainMonitorErrors.get(), "a hold lost with the master is reported as lost: " + tally);
        }
    }

    @Test
    void withReplicaAcksTwoHaspClientsKeepTheCounterExactThroughAKilledMaster() throws Exception {
        // One replica's confirmation: the sentinels promote the replica with the most data, which has
        // every write either replica confirmed. The counter's SET is a script, confirmed like the locks.
        List<Tally> tallies = List.of(new Tally(), new Tally());
        ReplicaAcks acks = ReplicaAcks.of(1, Duration.ofMillis(500));
        String report = run("fleet:killed:acks", deployment::killMaster, false, List.of(hasp(acks), hasp(acks)), tallies);
        assertEquals(done(tallies), counter("fleet:killed:acks"), "no confirmed increment lost: " + report);
    }

    @Test
    void withReplicaAcksTwoHaspClientsKeepTheCounterExactThroughARequestedFailover() throws Exception {
        // Both replicas confirm: the old master takes writes until the sentinels demote it, and a write
        // only the replica that is not promoted confirmed would be lost.
        List<Tally> tallies = List.of(new Tally(), new Tally());
        ReplicaAcks acks = ReplicaAcks.of(2, Duration.ofMillis(500));
        String report = run("fleet:failover:acks", deployment::failover, true, List.of(hasp(acks), hasp(acks)), tallies);
        assertEquals(done(tallies), counter("fleet:failover:acks"), "no confirmed increment lost: " + report);
    }
}
