package io.hasp.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two application instances (two clients, each with its own provider and ShedLock executor) running
 * the same job on one schedule: exactly one run per tick; an unlock that only ever removes its own
 * hold; and a job that holds the lock when a Redisson-style name prefix is chosen.
 */
class ScheduledJobsIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static RedisServer server;
    private static HaspClient one;
    private static HaspClient two;
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @BeforeAll
    static void start() {
        server = RedisServer.builder().name("shedlock-jobs").start();
        one = HaspClient.create(server.uri());
        two = HaspClient.create(server.uri());
    }

    @AfterAll
    static void stop() {
        try {
            one.close();
            two.close();
        } finally {
            server.close();
        }
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
    }

    private static long exists(String key) {
        try (RedisProbe probe = server.probe()) {
            return (Long) probe.call("EXISTS", key);
        }
    }

    private static LockConfiguration job(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    @Test
    void aJobLockedFromInsideAHaspCallbackIsRefusedAtOnceAndTakesNothing() throws Exception {
        HaspLockProvider provider = new HaspLockProvider(one);
        // A callback of a lock that another client holds: it runs on hasp's event loop once that client unlocks.
        HaspLock busy = two.getLock("shedlock-callback-gate");
        HaspLock gate = one.getLock("shedlock-callback-gate");
        busy.lock();
        try {
            CompletableFuture<Object> inCallback = gate.lockAsync(gate.owner(424_242)).handle((v, e) -> {
                try {
                    return provider.lock(job("from-callback", Duration.ofSeconds(10), Duration.ZERO));
                } catch (RuntimeException refused) {
                    return refused;
                }
            });
            busy.unlock();
            Object outcome = inCallback.get(30, TimeUnit.SECONDS);
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class, outcome);
            assertTrue(refused.getMessage().startsWith("a ShedLock lock call: blocking call on hasp client thread"),
                    refused.getMessage());
            assertEquals(0, exists("shedlock:from-callback"), "nothing was taken");
        } finally {
            gate.forceUnlock();
        }
    }

    @Test
    void twoInstancesRacingEachTickRunTheJobOncePerTick() throws Exception {
        List<LockingTaskExecutor> instances = List.of(new DefaultLockingTaskExecutor(new HaspLockProvider(one)),
                new DefaultLockingTaskExecutor(new HaspLockProvider(two)));
        int ticks = 20;
        AtomicInteger[] runs = new AtomicInteger[ticks];
        for (int t = 0; t < ticks; t++) {
            runs[t] = new AtomicInteger();
        }
        CyclicBarrier tick = new CyclicBarrier(2);
        List<Future<?>> scheduled = new ArrayList<>();
        for (LockingTaskExecutor instance : instances) {
            scheduled.add(threads.submit(() -> {
                for (int t = 0; t < ticks; t++) {
                    int now = t;
                    tick.await(30, TimeUnit.SECONDS);   // both instances' schedulers fire at once
                    instance.executeWithLock((Runnable) () -> runs[now].incrementAndGet(),
                            job("report", Duration.ofSeconds(10), Duration.ofMillis(100)));
                    // The next tick comes once lockAtLeastFor has let the lock go.
                    assertTrue(Conditions.await(DEADLINE, () -> exists("shedlock:report") == 0));
                }
                return null;
            }));
        }
        for (Future<?> instance : scheduled) {
            instance.get(60, TimeUnit.SECONDS);
        }
        for (int t = 0; t < ticks; t++) {
            assertEquals(1, runs[t].get(), "runs at tick " + t);
        }
    }

    @Test
    void anUnlockAfterTheLeaseRanOutLeavesTheNextInstancesLockAlone() {
        HaspLockProvider first = new HaspLockProvider(one);
        HaspLockProvider second = new HaspLockProvider(two);
        SimpleLock late = first.lock(job("cleanup", Duration.ofMillis(300), Duration.ZERO)).orElseThrow();
        assertEquals(Optional.empty(), second.lock(job("cleanup", Duration.ofSeconds(10), Duration.ZERO)),
                "never waits: the job is held elsewhere");
        assertTrue(Conditions.await(DEADLINE, () -> exists("shedlock:cleanup") == 0), "the first lease ran out");
        SimpleLock next = second.lock(job("cleanup", Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        late.unlock();   // the first instance's job ends late: its unlock must not free the second's lock
        assertEquals(1L, exists("shedlock:cleanup"));
        assertEquals(Optional.empty(), first.lock(job("cleanup", Duration.ofSeconds(10), Duration.ZERO)));
        next.unlock();
        assertEquals(0L, exists("shedlock:cleanup"));
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterAnEarlyUnlockAndTheLockNamesTakeThePrefix() {
        HaspLockProvider provider = new HaspLockProvider(one, "jobs/");
        provider.lock(job("nightly", Duration.ofSeconds(10), Duration.ofSeconds(5))).orElseThrow().unlock();
        assertEquals(1L, exists("jobs/nightly"), "kept until lockAtLeastFor has passed");
        try (RedisProbe probe = server.probe()) {
            long ttl = (Long) probe.call("PTTL", "jobs/nightly");
            assertTrue(ttl > 0 && ttl <= 5_000, "the lease is the time left of lockAtLeastFor: " + ttl);
            probe.call("DEL", "jobs/nightly");
        }
        SimpleLock held = provider.lock(job("nightly", Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        assertEquals(Optional.empty(), new HaspLockProvider(one, "jobs/").lock(job("nightly", Duration.ofSeconds(10),
                Duration.ZERO)), "another provider on the same client is another instance");
        held.unlock();
        assertEquals(0L, exists("jobs/nightly"), "after lockAtLeastFor an unlock frees the lock");
        assertThrows(IllegalArgumentException.class, () -> new HaspLockProvider(one, null));
        assertThrows(IllegalArgumentException.class, () -> new HaspLockProvider(null));
    }
}
