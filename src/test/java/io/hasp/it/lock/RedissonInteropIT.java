package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.it.RedissonRelease;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A hasp client and a Redisson client on the same lock name: they exclude each other, wake each
 * other through the unlock channel, and see each other's holds. Runs against Redisson 4.x here and
 * against the last 3.x release in hasp-interop-redisson3.
 */
@ExtendWith(RedisServerExtension.class)
class RedissonInteropIT {

    private static HaspClient hasp;
    private static RedissonClient redisson;
    private static RedisProbe probe;
    private String name;

    @BeforeAll
    static void start(RedisServer server) {
        hasp = Clients.hasp(server.uri(), seconds(30));
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri());
        redisson = Redisson.create(config);
        probe = RedisProbe.connect(server.port());
    }

    @Test
    void runsAgainstTheRedissonReleaseTheBuildNames() throws Exception {
        assertEquals(RedissonRelease.named(), RedissonRelease.onClassPath());
    }

    @AfterAll
    static void stop() {
        hasp.close();
        redisson.shutdown();
        probe.close();
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "interop:" + test.getTestMethod().orElseThrow().getName();
    }

    private static <T> T onOtherThread(java.util.concurrent.Callable<T> body) throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            return thread.submit(body).get(60, TimeUnit.SECONDS);
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void redissonSeesAHaspHoldAndCannotTakeIt() throws Exception {
        HaspLock lock = hasp.getLock(name);
        lock.lock();
        try {
            RLock theirs = redisson.getLock(name);
            assertTrue(theirs.isLocked());
            assertTrue(theirs.remainTimeToLive() > 0);
            assertFalse(onOtherThread(() -> theirs.tryLock(0, TimeUnit.SECONDS)));
            assertFalse(theirs.isHeldByCurrentThread());
        } finally {
            lock.unlock();
        }
        assertFalse(redisson.getLock(name).isLocked());
    }

    @Test
    void haspSeesARedissonHoldAndCannotTakeIt() throws Exception {
        RLock theirs = redisson.getLock(name);
        theirs.lock();
        try {
            theirs.lock();  // re-entered: count 2
            HaspLock lock = hasp.getLock(name);
            assertTrue(lock.isLocked());
            assertTrue(lock.remainTimeToLive() > 0);
            assertFalse(onOtherThread(() -> lock.tryLock()));
            assertFalse(lock.isHeldByCurrentThread());
            theirs.unlock();
            assertTrue(lock.isLocked());
        } finally {
            theirs.unlock();
        }
        assertFalse(hasp.getLock(name).isLocked());
    }

    @Test
    void aRedissonUnlockWakesAHaspWaiterLongBeforeTheLeaseRunsOut() throws Exception {
        RLock theirs = redisson.getLock(name);
        theirs.lock();  // Redisson's watchdog: 30 s lease
        HaspLock lock = hasp.getLock(name);
        CompletableFuture<Boolean> waiter = lock.tryLockAsync(seconds(20), lock.owner(1));
        Clients.await("the hasp waiter subscribed", seconds(10),
                () -> Clients.subscribers(probe, "redisson_lock__channel:{" + name + "}") == 1);
        assertFalse(waiter.isDone());
        theirs.unlock();
        assertTrue(waiter.get(20, TimeUnit.SECONDS), "woken by Redisson's unlock message within 20 s of a 30 s lease");
        lock.unlockAsync(lock.owner(1)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aHaspUnlockWakesARedissonWaiterLongBeforeTheLeaseRunsOut() throws Exception {
        HaspLock lock = hasp.getLock(name);
        lock.lock();  // hasp's watchdog: 30 s lease
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            RLock theirs = redisson.getLock(name);
            try {
                waiting.countDown();
                boolean acquired = theirs.tryLock(20, TimeUnit.SECONDS);
                if (acquired) {
                    theirs.unlock();
                }
                return acquired;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(waiting.await(10, TimeUnit.SECONDS));
        Clients.await("the Redisson waiter subscribed", seconds(10),
                () -> Clients.subscribers(probe, "redisson_lock__channel:{" + name + "}") == 1);
        lock.unlock();
        assertTrue(waiter.get(30, TimeUnit.SECONDS), "woken by hasp's unlock message within 20 s of a 30 s lease");
    }

    @Test
    void haspAndRedissonThreadsExcludeEachOther() throws Exception {
        String counter = name + ":counter";
        int perThread = 250;
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                work.add(threads.submit(() -> {
                    HaspLock lock = hasp.getLock(name);
                    incrementUnder(lock::lock, lock::unlock, counter, perThread);
                    return null;
                }));
                work.add(threads.submit(() -> {
                    RLock lock = redisson.getLock(name);
                    incrementUnder(lock::lock, lock::unlock, counter, perThread);
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(Long.toString(4L * perThread), hasp.commands().get(counter).join());
        assertFalse(hasp.getLock(name).isLocked());
    }

    @Test
    void redissonWaitersGetTheirShareOfALockHaspThreadsContendFor() throws Exception {
        int total = 4_000;
        java.util.concurrent.atomic.AtomicInteger granted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger theirs = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                work.add(threads.submit(() -> {
                    HaspLock lock = hasp.getLock(name);
                    while (granted.get() < total) {
                        lock.lock();
                        granted.incrementAndGet();
                        lock.unlock();
                    }
                    return null;
                }));
                work.add(threads.submit(() -> {
                    RLock lock = redisson.getLock(name);
                    while (granted.get() < total) {
                        lock.lock();
                        granted.incrementAndGet();
                        theirs.incrementAndGet();
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        // hasp's releases let listeners of the shared channel have their go, instead of handing the lock to the
        // next hasp thread at once: without that, Redisson's threads got about 1% of the lock.
        assertTrue(theirs.get() >= granted.get() / 10, "Redisson's threads got " + theirs.get() + " of "
                + granted.get() + " acquisitions");
    }

    @Test
    void haspAndRedissonFencedLocksIssueTokensFromOneSequence() throws Exception {
        FencedLock ours = hasp.getFencedLock(name);
        long first = ours.lockAndGetToken();
        ours.unlock();
        RFencedLock theirs = redisson.getFencedLock(name);
        long second = onOtherThread(() -> {
            Long token = theirs.lockAndGetToken();
            theirs.unlock();
            return token;
        });
        assertEquals(first + 1, second, "Redisson's acquisition took the next token of hasp's sequence");
        long third = ours.lockAndGetToken();
        assertEquals(second + 1, third);
        assertEquals(third, onOtherThread(theirs::getToken).longValue(), "Redisson reads the token hasp took");
        ours.unlock();
    }

    @Test
    void fencedHoldsExcludeEachOtherAndARedissonUnlockWakesAHaspWaiter() throws Exception {
        RFencedLock theirs = redisson.getFencedLock(name);
        ExecutorService redissonThread = Executors.newSingleThreadExecutor();
        try {
            long held = redissonThread.submit(() -> theirs.lockAndGetToken(60, TimeUnit.SECONDS))
                    .get(60, TimeUnit.SECONDS);
            FencedLock ours = hasp.getFencedLock(name);
            assertEquals(OptionalLong.empty(), ours.tryLockAndGetToken());
            CompletableFuture<Long> waiting = ours.lockAndGetTokenAsync(ours.owner(7));
            assertFalse(waiting.isDone());
            redissonThread.submit(() -> theirs.unlock()).get(60, TimeUnit.SECONDS);
            long token = waiting.get(20, TimeUnit.SECONDS);
            assertEquals(held + 1, token, "woken by Redisson's unlock message (its watchdog would have kept the lock)");
            Long refused = redissonThread.submit(() -> theirs.tryLockAndGetToken(50, 10_000, TimeUnit.MILLISECONDS))
                    .get(60, TimeUnit.SECONDS);
            assertEquals(null, refused, "Redisson cannot take hasp's fenced hold");
            ours.unlockAsync(ours.owner(7)).get(20, TimeUnit.SECONDS);
        } finally {
            redissonThread.shutdownNow();
        }
    }

    /** Adds one to {@code counter} {@code times} times, each read and write between {@code lock} and {@code unlock}. */
    private void incrementUnder(Runnable lock, Runnable unlock, String counter, int times) {
        for (int i = 0; i < times; i++) {
            lock.run();
            try {
                String v = hasp.commands().get(counter).join();
                hasp.commands().set(counter, Long.toString(v == null ? 1 : Long.parseLong(v) + 1)).join();
            } finally {
                unlock.run();
            }
        }
    }
}
