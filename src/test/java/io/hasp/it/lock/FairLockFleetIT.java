package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * hasp's fair lock across processes: waiters in two worker JVMs and waiters in this one (Redisson's, or hasp's)
 * are served in the order they came; a waiter whose JVM is killed with SIGKILL while in line (and whose service then restarts)
 * holds nobody up past its watchdog lease, nor does one cut off from Redis; a mixed fleet of hasp JVMs and Redisson threads keeps a plain counter
 * exact.
 */
@ExtendWith(RedisServerExtension.class)
class FairLockFleetIT {

    private static final Duration SLACK = Duration.ofSeconds(60);

    private static RedisServer server;
    private static HaspClient hasp;
    private static RedissonClient redisson;
    private static RedisProbe probe;

    private String name;
    private String served;

    @BeforeAll
    static void start(RedisServer redis) {
        server = redis;
        hasp = Clients.hasp(redis.uri(), seconds(30));
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        redisson = Redisson.create(config);
        probe = RedisProbe.connect(redis.port());
    }

    @AfterAll
    static void stop() {
        hasp.close();
        redisson.shutdown();
        probe.close();
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "fair-fleet:" + test.getTestMethod().orElseThrow().getName();
        served = name + ":served";
    }

    private List<?> line() {
        return (List<?>) probe.call("LRANGE", "redisson_lock_queue:{" + name + "}", "0", "-1");
    }

    private void awaitLine(int length) throws InterruptedException {
        await("a line of " + length, SLACK, () -> line().size() == length);
    }

    private ChildJvm waiter(String id, long watchdogMillis) {
        return ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=once", "kind=fair", "uri=" + server.uri(),
                "lock=" + name, "served=" + served, "id=" + id, "watchdog=" + watchdogMillis);
    }

    private static void awaitServed(ChildJvm jvm, String id) throws InterruptedException {
        assertNotNull(jvm.awaitLine("SERVED " + id, SLACK), "worker " + id + " was not served; its output:\n"
                + jvm.output());
    }

    @Test
    void waitersOfTwoJvmsAndOfRedissonAreServedInTheOrderTheyCame() throws Exception {
        servedInOrder(true);
    }

    @Test
    void haspWaitersOfThreeJvmsAreServedInTheOrderTheyCame() throws Exception {
        servedInOrder(false);
    }

    /** Worker JVMs and waiters of this JVM (Redisson's, or hasp's) in turn, behind a hasp holder. */
    private void servedInOrder(boolean redissonHere) throws Exception {
        HaspLock held = hasp.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        String here = redissonHere ? "redisson" : "hasp";
        List<ChildJvm> jvms = new ArrayList<>();
        List<CompletableFuture<?>> waitersHere = new ArrayList<>();
        try {
            jvms.add(waiter("jvm-1", 30_000));
            awaitLine(1);
            waitersHere.add(servedHere(redissonHere, here + "-1", 11));
            awaitLine(2);
            jvms.add(waiter("jvm-2", 30_000));
            awaitLine(3);
            waitersHere.add(servedHere(redissonHere, here + "-2", 12));
            awaitLine(4);

            held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
            awaitServed(jvms.get(0), "jvm-1");
            awaitServed(jvms.get(1), "jvm-2");
            CompletableFuture.allOf(waitersHere.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertEquals(List.of("jvm-1", here + "-1", "jvm-2", here + "-2"), probe.call("LRANGE", served, "0", "-1"));
            assertEquals(List.of(), line());
        } finally {
            for (ChildJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    /** A waiter of this JVM, Redisson's or hasp's, for thread id {@code thread}, that appends {@code id} to the list. */
    private CompletableFuture<?> servedHere(boolean redissonHere, String id, long thread) {
        if (redissonHere) {
            return redissonServes(id, thread);
        }
        HaspLock lock = hasp.getFairLock(name);
        LockOwner owner = lock.owner(thread);
        return lock.lockAsync(owner)
                .thenCompose(granted -> hasp.commands().execute(io.hasp.Replies.LONG, "RPUSH", served, id))
                .thenCompose(added -> lock.unlockAsync(owner));
    }

    /** A Redisson waiter for this JVM's thread id {@code thread} that appends {@code id} to the served list. */
    private CompletableFuture<?> redissonServes(String id, long thread) {
        RLock lock = redisson.getFairLock(name);
        return lock.lockAsync(thread).toCompletableFuture()
                .thenCompose(granted -> redisson.getList(served, StringCodec.INSTANCE).addAsync(id).toCompletableFuture())
                .thenCompose(added -> lock.unlockAsync(thread).toCompletableFuture());
    }

    @Test
    void aWaiterKilledInLineHoldsNobodyUpPastItsWatchdogLease() throws Exception {
        HaspLock held = hasp.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        // A place lease long enough for the restarted JVM to line up behind the dead waiter while it still stands.
        try (ChildJvm killed = waiter("killed", 10_000)) {
            awaitLine(1);
            Object dead = line().get(0);
            killed.kill();   // SIGKILL while in line: nothing gives its place back

            // The service restarts: a new JVM, a new client, at the back of the line.
            try (ChildJvm restarted = waiter("restarted", 2_000)) {
                awaitLine(2);
                assertEquals(dead, line().get(0), "the dead waiter still heads the line");
                held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
                // The dead waiter's place lapses within 10 s of its last renewal; the restarted one looks again
                // at least every 2/3 s, and is served then.
                awaitServed(restarted, "restarted");
                assertEquals(List.of("restarted"), probe.call("LRANGE", served, "0", "-1"));
                assertFalse(line().contains(dead));
                assertEquals(null, probe.call("ZSCORE", "hasp_lock_places:{" + name + "}", (String) dead));
            }
        }
    }

    @Test
    void aMixedFleetOfHaspJvmsAndRedissonThreadsKeepsTheCounterExact() throws Exception {
        String counter = name + ":counter";
        int perJvm = 300;
        int perRedissonThread = 150;
        List<ChildJvm> jvms = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int p = 0; p < 2; p++) {
                jvms.add(ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=count", "kind=fair",
                        "uri=" + server.uri(), "lock=" + name, "counter=" + counter, "threads=4",
                        "increments=" + perJvm));
            }
            List<Future<?>> redissonThreads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                redissonThreads.add(threads.submit(() -> {
                    RLock lock = redisson.getFairLock(name);
                    RBucket<String> value = redisson.getBucket(counter, StringCodec.INSTANCE);
                    for (int i = 0; i < perRedissonThread; i++) {
                        lock.lock();
                        try {
                            String before = value.get();
                            value.set(Long.toString(before == null ? 1 : Long.parseLong(before) + 1));
                        } finally {
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            for (ChildJvm jvm : jvms) {
                String line = jvm.awaitLine("DONE ", Duration.ofMinutes(5));
                assertNotNull(line, "a worker JVM did not finish; its output:\n" + jvm.output());
                assertEquals("DONE " + perJvm + " 0", line, jvm.output());
            }
            for (Future<?> thread : redissonThreads) {
                thread.get(5, TimeUnit.MINUTES);
            }
            assertEquals(Integer.toString(2 * perJvm + 2 * perRedissonThread), probe.call("GET", counter));
            assertEquals(0L, probe.call("EXISTS", name));
            await("the line's keys gone", SLACK, () -> (Long) probe.call("EXISTS", "redisson_lock_queue:{" + name + "}",
                    "hasp_lock_places:{" + name + "}") == 0);
        } finally {
            threads.shutdownNow();
            for (ChildJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    @Test
    void aPlaceWhoseGiveBackFindsTheLinkCutIsGivenBackOnceTheLinkIsBack() throws Exception {
        HaspLock held = hasp.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        try (TcpProxy link = TcpProxy.start(server.port());
                HaspClient cutOff = HaspClient.create(HaspConfig.builder().uri(link.uri())
                        .watchdogLease(Duration.ofSeconds(60)).commandTimeout(Duration.ofMillis(1_500))
                        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(100), 0).build())) {
            HaspLock lock = cutOff.getFairLock(name);
            CompletableFuture<Boolean> waiting = lock.tryLockAsync(Duration.ofSeconds(60), lock.owner(1));
            awaitLine(1);
            link.rejectNewConnections(true);
            link.cutAll();
            waiting.cancel(false);   // the waiter gives up: its place goes back, but no connection can carry that now
            // Reconnects refused (every 100 ms, on one or two connections) past the give-back's first send's 1.5 s, and
            // well within its retry budget (four command timeouts, 6 s).
            await("reconnects refused for a while", SLACK, () -> link.rejectedCount() >= 40);
            assertEquals(1, line().size(), "the place stays while the link is cut");
            link.rejectNewConnections(false);
            await("the place given back once the link is back, long before its 60 s lease ends", Duration.ofSeconds(15),
                    () -> line().isEmpty());
        } finally {
            held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aWaiterThatStoppedLosesItsPlaceWithinItsWatchdogLease() throws Exception {
        HaspLock held = hasp.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        try (TcpProxy link = TcpProxy.start(server.port());
                HaspClient cutOff = Clients.hasp(link.uri(), Duration.ofMillis(1_500));
                HaspClient live = Clients.hasp(server.uri(), Duration.ofMillis(1_500))) {
            HaspLock stopped = cutOff.getFairLock(name);
            CompletableFuture<Void> neverServed = stopped.lockAsync(stopped.owner(1));
            awaitLine(1);
            HaspLock waiting = live.getFairLock(name);
            LockOwner next = waiting.owner(2);
            CompletableFuture<Void> served = waiting.lockAsync(next);
            awaitLine(2);
            link.blackhole(true);   // the first waiter can no longer renew its place, nor take the lock

            held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
            served.get(20, TimeUnit.SECONDS);
            assertTrue(waiting.isHeldBy(next));
            assertEquals(List.of(), line());
            assertFalse(neverServed.isDone());
            waiting.unlockAsync(next).get(10, TimeUnit.SECONDS);
            link.blackhole(false);
            neverServed.cancel(false);
        }
    }
}
