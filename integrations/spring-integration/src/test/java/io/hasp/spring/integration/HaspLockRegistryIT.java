package io.hasp.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldLostException;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * {@link HaspLockRegistry} against a real Redis, on the behaviour Spring Integration's own registry
 * promises its users: one lock object per key, reentrant per thread, registries as separate holders,
 * what unlocks by the wrong thread and after expiry throw, times to live, renewals, the cache, and
 * {@code executeLocked}; and where hasp differs, the watchdog that keeps a lock taken without one.
 */
class HaspLockRegistryIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private static RedisServer server;
    private static HaspClient client;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private String registryKey;

    @BeforeAll
    static void start() {
        server = RedisServer.builder().name("spring-integration-registry").start();
        client = HaspClient.create(server.uri());
    }

    @AfterAll
    static void stop() {
        try {
            client.close();
        } finally {
            server.close();
        }
    }

    @BeforeEach
    void name(TestInfo test) {
        registryKey = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
    }

    private static Object redis(String... command) {
        try (RedisProbe probe = server.probe()) {
            return probe.call(command);
        }
    }

    private String lockName(String key) {
        return registryKey + ":" + key;
    }

    /** The hold count of {@code registry}'s holder on thread {@code threadId}, read from the lock's hash. */
    private String holdCount(HaspLockRegistry registry, String key, long threadId) {
        return (String) redis("HGET", lockName(key), registry.holderClientId() + ":" + threadId);
    }

    /** Whether a client of this server listens for the unlocks of {@code key}'s lock (a waiter is parked). */
    private boolean someoneWaitsFor(String key) {
        java.util.List<?> reply = (java.util.List<?>) redis("PUBSUB", "NUMSUB", "redisson_lock__channel:{" + lockName(key) + "}");
        return ((Long) reply.get(1)) > 0;
    }

    @SuppressWarnings("deprecation")
    private static long thisThread() {
        return Thread.currentThread().getId();
    }

    @Test
    void oneLockObjectPerKeyHeldAsAHashInRedissonsLayoutAndForgottenOnceUnused() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        for (int i = 0; i < 3; i++) {
            Lock lock = registry.obtain("foo");
            lock.lock();
            try {
                assertSame(lock, registry.obtain("foo"));
                assertEquals(1, registry.cachedLocks());
                assertEquals("1", holdCount(registry, "foo", thisThread()));
            } finally {
                lock.unlock();
            }
            assertEquals(0L, redis("EXISTS", lockName("foo")));
        }
        assertNotSame(registry.obtain("foo"), registry.obtain("bar"));
        registry.expireUnusedOlderThan(-1000);
        assertEquals(0, registry.cachedLocks());
    }

    @Test
    void aLockCallFromInsideAHaspCallbackIsRefusedAtOnceAndTakesNothing() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        Lock lock = registry.obtain("foo");
        // A callback of a lock that another client holds: it runs on hasp's event loop once that client unlocks.
        HaspLock gate = client.getLock(lockName("gate"));
        try (HaspClient other = HaspClient.create(server.uri())) {
            HaspLock busy = other.getLock(lockName("gate"));
            busy.lock();
            CompletableFuture<Object> inCallback = gate.lockAsync(gate.owner(424_242)).handle((v, e) -> {
                try {
                    return lock.tryLock(1, TimeUnit.SECONDS);
                } catch (RuntimeException | InterruptedException refused) {
                    return refused;
                }
            });
            busy.unlock();
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class,
                    inCallback.get(30, TimeUnit.SECONDS));
            assertTrue(refused.getMessage().startsWith("a LockRegistry lock call: blocking call on hasp client thread"),
                    refused.getMessage());
        } finally {
            gate.forceUnlock();
        }
        assertEquals(0L, redis("EXISTS", lockName("foo")), "nothing was taken");
    }

    @Test
    void aLockIsReentrantForItsThread() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        Lock lock = registry.obtain("foo");
        lock.lockInterruptibly();
        registry.obtain("foo").lock();
        assertEquals("2", holdCount(registry, "foo", thisThread()));
        lock.unlock();
        assertEquals("1", holdCount(registry, "foo", thisThread()));
        lock.unlock();
        assertEquals(0L, redis("EXISTS", lockName("foo")));
        assertThrows(IllegalStateException.class, lock::unlock);
    }

    @Test
    void anotherThreadWaitsForTheLockAndCannotUnlockIt() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        Lock lock = registry.obtain("foo");
        lock.lock();
        Future<Boolean> tried = threads.submit(() -> registry.obtain("foo").tryLock(200, TimeUnit.MILLISECONDS));
        assertFalse(tried.get(30, TimeUnit.SECONDS));
        Future<?> wrongUnlock = threads.submit(lock::unlock);
        ExecutionException refused = assertThrows(ExecutionException.class, () -> wrongUnlock.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains("You do not own lock at " + lockName("foo")),
                refused.getCause().getMessage());

        CountDownLatch waiting = new CountDownLatch(1);
        AtomicInteger heldBySecond = new AtomicInteger();
        Future<?> second = threads.submit(() -> {
            Lock same = registry.obtain("foo");
            waiting.countDown();
            same.lockInterruptibly();
            try {
                heldBySecond.incrementAndGet();
            } finally {
                same.unlock();
            }
            return null;
        });
        assertTrue(waiting.await(30, TimeUnit.SECONDS));
        assertTrue(Conditions.await(DEADLINE, () -> someoneWaitsFor("foo")), "the second thread waits for the lock");
        assertEquals(0, heldBySecond.get());
        lock.unlock();
        second.get(30, TimeUnit.SECONDS);
        assertEquals(1, heldBySecond.get());
        assertEquals(0L, redis("EXISTS", lockName("foo")));
    }

    @Test
    void twoRegistriesAreTwoHoldersEvenOnOneThreadAndOneClient() throws Exception {
        HaspLockRegistry one = new HaspLockRegistry(client, registryKey, Duration.ofSeconds(30));
        HaspLockRegistry two = new HaspLockRegistry(client, registryKey, Duration.ofSeconds(30));
        DistributedLock first = one.obtain("foo");
        DistributedLock second = two.obtain("foo");
        assertTrue(first.tryLock());
        assertFalse(second.tryLock());
        redis("PEXPIRE", lockName("foo"), "1");   // the first registry's hold runs out
        assertTrue(Conditions.await(DEADLINE, () -> (Long) redis("EXISTS", lockName("foo")) == 0));
        assertTrue(second.tryLock());
        assertFalse(first.tryLock());
        second.unlock();
        assertThrows(ConcurrentModificationException.class, first::unlock);
    }

    @Test
    void aThreadThatTakesTheLockAgainAfterItsHoldEndedIsToldAtTheOuterUnlock() {
        // A short watchdog lease: hasp forgets a hold whose lease ran out one watchdog lease after it did.
        HaspConfig config = HaspConfig.builder().uri(server.uri()).watchdogLease(Duration.ofMillis(600)).build();
        try (HaspClient shortLeases = HaspClient.create(config)) {
            HaspLockRegistry registry = new HaspLockRegistry(shortLeases, registryKey, Duration.ofMillis(200));
            Lock lock = registry.obtain("foo");
            lock.lock();
            io.hasp.lock.LockOwner owner = io.hasp.lock.LockOwner.of(registry.holderClientId(), thisThread());
            assertTrue(Conditions.await(DEADLINE, () -> shortLeases.getLock(lockName("foo")).holdEnd(owner).isDone()),
                    "hasp saw the lease run out");
            lock.lock();   // a new hold, not a second level of the ended one
            assertEquals("1", holdCount(registry, "foo", thisThread()));
            lock.unlock();
            assertEquals(0L, redis("EXISTS", lockName("foo")));
            assertThrows(ConcurrentModificationException.class, lock::unlock, "the outer level's hold had ended");
            assertThrows(IllegalStateException.class, lock::unlock);
        }
    }

    @Test
    void anUnlockAfterTheTimeToLiveRanOutThrowsConcurrentModification() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey, Duration.ofMillis(100));
        Lock lock = registry.obtain("foo");
        lock.lock();
        assertTrue(Conditions.await(DEADLINE, () -> (Long) redis("EXISTS", lockName("foo")) == 0));
        ConcurrentModificationException thrown = assertThrows(ConcurrentModificationException.class, lock::unlock);
        assertInstanceOf(HoldLostException.class, thrown.getCause());
        assertThrows(IllegalStateException.class, lock::unlock, "the hold is forgotten with its unlock");
    }

    @Test
    void anUnlockAfterTheKeyWasDeletedThrowsConcurrentModification() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        Lock lock = registry.obtain("foo");
        lock.lock();
        redis("DEL", lockName("foo"));
        assertThrows(ConcurrentModificationException.class, lock::unlock);
    }

    @Test
    void aTimeToLiveGivenToTheLockOutlastsTheRegistrysDefault() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey, Duration.ofMillis(100));
        DistributedLock lock = registry.obtain("foo");
        lock.lock(Duration.ofSeconds(20));
        assertTrue((Long) redis("PTTL", lockName("foo")) > 10_000);
        lock.unlock();
        assertTrue(lock.tryLock(Duration.ofMillis(100), Duration.ofSeconds(20)));
        assertTrue((Long) redis("PTTL", lockName("foo")) > 10_000);
        lock.unlock();
        assertThrows(IllegalArgumentException.class, () -> lock.lock(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> lock.tryLock(Duration.ZERO, null));
    }

    @Test
    void withoutATimeToLiveTheWatchdogKeepsTheLockWhileHeld() {
        HaspConfig config = HaspConfig.builder().uri(server.uri()).watchdogLease(Duration.ofMillis(600)).build();
        try (HaspClient shortLeases = HaspClient.create(config)) {
            HaspLockRegistry registry = new HaspLockRegistry(shortLeases, registryKey);
            Lock lock = registry.obtain("foo");
            lock.lock();
            long renewals = shortLeases.renewalCalls();
            assertTrue(Conditions.await(DEADLINE, () -> shortLeases.renewalCalls() >= renewals + 5),
                    "the watchdog renews the hold: five renewals outlast the lease twice over");
            assertEquals("1", holdCount(registry, "foo", thisThread()));
            lock.unlock();
            assertEquals(0L, redis("EXISTS", lockName("foo")));
        }
    }

    @Test
    void renewLockResetsTheTimeToLiveOfTheCallersHold() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey, Duration.ofSeconds(20));
        Lock lock = registry.obtain("foo");
        lock.lock();
        redis("PEXPIRE", lockName("foo"), "5000");
        registry.renewLock("foo");
        assertTrue((Long) redis("PTTL", lockName("foo")) > 10_000, "back to the registry's expireAfter");
        registry.renewLock("foo", Duration.ofSeconds(60));
        assertTrue((Long) redis("PTTL", lockName("foo")) > 30_000);
        Future<?> other = threads.submit(() -> registry.renewLock("foo"));
        ExecutionException refused = assertThrows(ExecutionException.class, () -> other.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, refused.getCause());
        redis("DEL", lockName("foo"));
        assertThrows(IllegalStateException.class, () -> registry.renewLock("foo"));
        assertThrows(ConcurrentModificationException.class, lock::unlock);
        assertThrows(IllegalArgumentException.class, () -> registry.renewLock("foo", Duration.ZERO));
    }

    @Test
    void renewLockOfAWatchdogHoldChecksItAndRefusesATimeToLive() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        Lock lock = registry.obtain("foo");
        lock.lock();
        registry.renewLock("foo");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> registry.renewLock("foo", Duration.ofSeconds(5)));
        assertTrue(refused.getMessage().contains("watchdog"), refused.getMessage());
        redis("DEL", lockName("foo"));
        assertThrows(IllegalStateException.class, () -> registry.renewLock("foo"));
        assertThrows(ConcurrentModificationException.class, lock::unlock);
    }

    @Test
    void theRenewalSchedulerKeepsAHoldPastItsTimeToLive() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.initialize();
        try {
            HaspLockRegistry registry = new HaspLockRegistry(client, registryKey, Duration.ofMillis(1_500));
            registry.setRenewalTaskScheduler(scheduler);
            Lock lock = registry.obtain("foo");
            lock.lock();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            assertTrue(Conditions.await(DEADLINE, () -> {
                assertEquals(1L, redis("EXISTS", lockName("foo")), "renewed every 500 ms, never expired");
                return System.nanoTime() - until > 0;
            }));
            lock.unlock();
            assertEquals(0L, redis("EXISTS", lockName("foo")));
        } finally {
            scheduler.shutdown();
        }
    }

    @Test
    void executeLockedRunsUnderTheLockAndTimesOutWhenItIsHeld() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        String seen = registry.executeLocked("foo", () -> holdCount(registry, "foo", thisThread()));
        assertEquals("1", seen);
        assertEquals(0L, redis("EXISTS", lockName("foo")));

        HaspLockRegistry elsewhere = new HaspLockRegistry(client, registryKey);
        Lock held = elsewhere.obtain("foo");
        held.lock();
        try {
            assertThrows(TimeoutException.class,
                    () -> registry.executeLocked("foo", Duration.ofMillis(100), () -> { }));
        } finally {
            held.unlock();
        }
    }

    @Test
    void anInterruptedWaiterLeavesWithoutTheLock() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        Lock lock = registry.obtain("foo");
        lock.lock();
        long[] waiterThread = new long[1];
        Future<?> waiter = threads.submit(() -> {
            waiterThread[0] = thisThread();
            registry.obtain("foo").lockInterruptibly();
            return null;
        });
        assertTrue(Conditions.await(DEADLINE, () -> someoneWaitsFor("foo")), "the waiter is parked");
        waiter.cancel(true);
        lock.unlock();
        assertTrue(Conditions.await(DEADLINE, waiter::isDone));
        assertTrue(Conditions.await(DEADLINE, () -> holdCount(registry, "foo", waiterThread[0]) == null),
                "the interrupted waiter keeps nothing");
        assertTrue(lock.tryLock());
        assertNull(holdCount(registry, "foo", waiterThread[0]));
        lock.unlock();
    }

    /**
     * The race the test above meets now and then, made certain: the grant is complete and the interrupt set when
     * the registry looks at its answer (a wait that returns a grant may keep the interrupt flag). The interrupt
     * wins and the grant goes back; returning normally would leave a hold that the interrupted caller never
     * unlocks, renewed for good.
     */
    @Test
    void anInterruptThatComesWithTheGrantWinsAndTheGrantGoesBack() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        HaspLock real = client.getLock(lockName("foo"));
        HaspLock interruptedAsGranted = (HaspLock) java.lang.reflect.Proxy.newProxyInstance(
                HaspLock.class.getClassLoader(), new Class<?>[] {HaspLock.class}, (proxy, method, args) -> {
                    Object answer;
                    try {
                        answer = method.invoke(real, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("lockAsync")) {
                        ((CompletableFuture<?>) answer).join();
                        Thread.currentThread().interrupt();
                    }
                    return answer;
                });
        RegistryLock lock = new RegistryLock(registry, "foo", interruptedAsGranted);
        try {
            assertThrows(InterruptedException.class, lock::lockInterruptibly);
            assertFalse(Thread.currentThread().isInterrupted(), "the interrupt is reported by the exception");
            assertFalse(lock.isAcquiredInThisProcess(), "no hold recorded");
            assertEquals(0L, redis("EXISTS", lockName("foo")), "the grant went back");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void destroyWaitsUntilTheThreadsGaveTheirLocksBack() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> holder = threads.submit(() -> {
            Lock lock = registry.obtain("foo");
            lock.lock();
            locked.countDown();
            release.await();
            lock.unlock();
            return null;
        });
        assertTrue(locked.await(30, TimeUnit.SECONDS));
        Future<?> destroying = threads.submit(() -> {
            registry.destroy();
            return null;
        });
        assertThrows(TimeoutException.class, () -> destroying.get(200, TimeUnit.MILLISECONDS), "still held");
        release.countDown();
        destroying.get(30, TimeUnit.SECONDS);
        assertEquals(0L, redis("EXISTS", lockName("foo")), "given back before destroy returned");
        holder.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aRedisErrorIsCannotAcquireLock() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        redis("SET", lockName("foo"), "a string where the lock's hash belongs");
        Lock lock = registry.obtain("foo");
        assertThrows(CannotAcquireLockException.class, lock::tryLock);
        assertThrows(CannotAcquireLockException.class, lock::lock);
        assertThrows(IllegalStateException.class, lock::unlock);
    }

    @Test
    void theCacheKeepsAtMostItsCapacityOfLocksAndNeverDropsAHeldOne() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        registry.setCacheCapacity(2);
        Lock a = registry.obtain("a");
        Lock b = registry.obtain("b");
        a.lock();
        b.lock();
        assertThrows(CannotAcquireLockException.class, () -> registry.obtain("c"));
        a.unlock();
        registry.obtain("c");
        assertEquals(2, registry.cachedLocks());
        assertSame(b, registry.obtain("b"), "the held lock stayed");
        assertNotSame(a, registry.obtain("a"), "the unheld one made room");
        b.unlock();
    }

    @Test
    void theLeastRecentlyObtainedUnheldLockMakesRoom() {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        registry.setCacheCapacity(3);
        Lock one = registry.obtain("1");
        Lock two = registry.obtain("2");
        Lock three = registry.obtain("3");
        assertSame(one, registry.obtain("1"));   // now "2" is the least recently obtained
        registry.obtain("4");
        assertEquals(3, registry.cachedLocks());
        assertSame(one, registry.obtain("1"));
        assertSame(three, registry.obtain("3"));
        assertNotSame(two, registry.obtain("2"));
    }

    @Test
    void aFailedTryLockLeavesTheHoldersTimeToLiveAlone() throws Exception {
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey, Duration.ofSeconds(20));
        Lock lock = registry.obtain("foo");
        lock.lock();
        redis("PEXPIRE", lockName("foo"), "15000");
        assertFalse(threads.submit(() -> registry.obtain("foo").tryLock()).get(30, TimeUnit.SECONDS));
        assertTrue((Long) redis("PTTL", lockName("foo")) <= 15_000, "the waiter did not touch the lease");
        lock.unlock();
    }

    @Test
    void threadsOfTenRegistriesKeepACounterExact() throws Exception {
        List<HaspLockRegistry> registries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            registries.add(new HaspLockRegistry(client, registryKey));
        }
        int[] counter = {0};
        List<Future<?>> workers = new ArrayList<>();
        for (HaspLockRegistry registry : registries) {
            for (int t = 0; t < 2; t++) {
                workers.add(threads.submit(() -> {
                    for (int n = 0; n < 25; n++) {
                        registry.executeLocked("counter", () -> {
                            int seen = counter[0];
                            Thread.yield();
                            counter[0] = seen + 1;
                        });
                    }
                    return null;
                }));
            }
        }
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }
        synchronized (counter) {
            assertEquals(10 * 2 * 25, counter[0]);
        }
        assertEquals(0L, redis("EXISTS", lockName("counter")));
    }

    @Test
    void badArgumentsAreRefusedClearly() {
        assertThrows(IllegalArgumentException.class, () -> new HaspLockRegistry(null, registryKey));
        assertThrows(IllegalArgumentException.class, () -> new HaspLockRegistry(client, ""));
        assertThrows(IllegalArgumentException.class, () -> new HaspLockRegistry(client, registryKey, Duration.ZERO));
        HaspLockRegistry registry = new HaspLockRegistry(client, registryKey);
        assertThrows(IllegalArgumentException.class, () -> registry.obtain(42));
        assertThrows(IllegalArgumentException.class, () -> registry.obtain(""));
        assertThrows(IllegalArgumentException.class, () -> registry.setCacheCapacity(0));
        assertThrows(UnsupportedOperationException.class, () -> registry.obtain("foo").newCondition());
        assertNull(registry.expireAfter());
    }
}
