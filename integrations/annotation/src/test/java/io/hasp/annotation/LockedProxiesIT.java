package io.hasp.annotation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Locked} methods behind {@link LockedProxies}, on a real redis-server: the lock is held
 * while the method runs, named from its {@link LockKey} arguments; values and exceptions pass
 * unchanged; attempts, their count and their jittered pauses on a lock held elsewhere; retries
 * until the lock is had; the skip mode; bad settings refused at startup.
 */
@ExtendWith(RedisServerExtension.class)
class LockedProxiesIT {

    private static HaspClient client;
    private static HaspClient elsewhere;
    private static RedisProbe probe;
    private static ExecutorService threads;

    private final List<Long> pauses = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        elsewhere = HaspClient.create(server.uri());
        probe = server.probe();
        threads = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        threads.shutdownNow();
        client.close();
        elsewhere.close();
        probe.close();
    }

    /** A template whose pauses between attempts are recorded, then slept. */
    private LockTemplate template() {
        return new LockTemplate(client, DeferredRelease.NEVER, nanos -> {
            pauses.add(nanos);
            TimeUnit.NANOSECONDS.sleep(nanos);
        });
    }

    record Sku(String warehouse, long id) {
    }

    /** An object with Object's toString: no stable text. */
    static final class Opaque {
    }

    interface Inventory {
        @Locked(prefix = "shop", value = "stock")
        int deduct(@LockKey long sku, int quantity) throws IOException;

        @Locked(value = "sku-record")
        String bySku(@LockKey Sku sku);

        @Locked(value = "opaque")
        void opaque(@LockKey Object key);

        @Locked(value = "busy", retryCount = 3, retryInterval = 20)
        String busy();

        @Locked(value = "until-had", retryCount = 0, retryInterval = 20)
        String untilHad();

        @Locked(value = "skipped", retryCount = 1, retryInterval = 10, whenUnavailable = WhenUnavailable.SKIP)
        int skipped();

        @Locked(value = "report", type = LockType.READ)
        void read(CountDownLatch inside, CountDownLatch leave) throws InterruptedException;

        @Locked(value = "report", type = LockType.WRITE)
        void write();

        @Locked(value = "line", type = LockType.FAIR, waitTime = 20_000)
        void inLine();

        String plain();
    }

    /** Records what it saw of its lock while running. */
    final class RealInventory implements Inventory {
        final AtomicInteger calls = new AtomicInteger();
        final List<String> served = new CopyOnWriteArrayList<>();
        volatile IOException toThrow;

        @Override
        public int deduct(long sku, int quantity) throws IOException {
            calls.incrementAndGet();
            assertTrue(elsewhere.getLock("shop:stock:" + sku).isLocked(), "the lock is held while the method runs");
            if (toThrow != null) {
                throw toThrow;
            }
            return quantity * 10;
        }

        @Override
        public String bySku(Sku sku) {
            return "held " + elsewhere.getLock("sku-record:" + sku).isLocked();
        }

        @Override
        public void opaque(Object key) {
            calls.incrementAndGet();
        }

        @Override
        public String busy() {
            calls.incrementAndGet();
            return "ran";
        }

        @Override
        public String untilHad() {
            return "had it";
        }

        @Override
        public int skipped() {
            calls.incrementAndGet();
            return 7;
        }

        @Override
        public void read(CountDownLatch inside, CountDownLatch leave) throws InterruptedException {
            inside.countDown();
            assertTrue(leave.await(20, TimeUnit.SECONDS));
        }

        @Override
        public void write() {
            calls.incrementAndGet();
        }

        @Override
        public void inLine() {
            assertTrue(elsewhere.getFairLock("line").isLocked(), "the fair lock is held while the method runs");
            served.add("proxied call");
        }

        @Override
        public String plain() {
            return "plain " + elsewhere.getLock("shop:stock:1").isLocked();
        }
    }

    @Test
    void theMethodRunsUnderItsLockAndItsValueComesBack() throws Exception {
        RealInventory real = new RealInventory();
        Inventory inventory = LockedProxies.create(Inventory.class, real, template());
        assertEquals(30, inventory.deduct(42, 3));
        assertFalse(elsewhere.getLock("shop:stock:42").isLocked(), "released after the call");
        assertEquals("held true", inventory.bySku(new Sku("north", 7)), "a record's text names the lock");
        assertEquals("plain false", inventory.plain(), "a method without @Locked runs without a lock");
        assertEquals(1, real.calls.get());
    }

    @Test
    void theMethodsExceptionGoesOutUnchangedAndTheLockIsReleased() {
        RealInventory real = new RealInventory();
        real.toThrow = new IOException("disk full");
        Inventory inventory = LockedProxies.create(Inventory.class, real, template());
        IOException thrown = assertThrows(IOException.class, () -> inventory.deduct(43, 1));
        assertSame(real.toThrow, thrown);
        assertFalse(elsewhere.getLock("shop:stock:43").isLocked());
    }

    @Test
    void aKeyWithoutAStableTextIsRefusedAndTheMethodDoesNotRun() {
        RealInventory real = new RealInventory();
        Inventory inventory = LockedProxies.create(Inventory.class, real, template());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> inventory.opaque(new Opaque()));
        assertTrue(e.getMessage().contains("Inventory.opaque(Object)") && e.getMessage().contains("identity hash"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> inventory.opaque(null));
        assertEquals(0, real.calls.get());
    }

    @Test
    void aLockHeldElsewhereIsTriedRetryCountTimesMoreWithJitteredPausesThenRefused() throws Exception {
        HaspLock held = elsewhere.getLock("busy");
        assertTrue(held.tryLock(Duration.ZERO, Duration.ofSeconds(30)));
        try {
            RealInventory real = new RealInventory();
            Inventory inventory = LockedProxies.create(Inventory.class, real, template());
            long scriptsBefore = scriptCalls();
            LockUnavailableException e = assertThrows(LockUnavailableException.class, inventory::busy);
            assertEquals("busy", e.lockName());
            assertEquals(4, e.attempts(), "the first attempt and 3 retries");
            assertEquals(4, scriptCalls() - scriptsBefore, "four acquire scripts reached the server");
            assertTrue(e.getMessage().contains("\"busy\"") && e.getMessage().contains("4 attempts"), e.getMessage());
            assertEquals(3, pauses.size(), "a pause before each retry");
            long interval = TimeUnit.MILLISECONDS.toNanos(20);
            for (long pause : pauses) {
                assertTrue(pause >= interval && pause <= 2 * interval, "between the interval and twice it: " + pause);
            }
            assertEquals(0, real.calls.get(), "the method did not run");
        } finally {
            held.unlock();
        }
    }

    @Test
    void pausesAreSpreadBetweenTheIntervalAndTwiceIt() {
        Duration interval = Duration.ofMillis(100);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 2_000; i++) {
            long pause = LockTemplate.jitter(interval);
            assertTrue(pause >= interval.toNanos() && pause <= 2 * interval.toNanos());
            min = Math.min(min, pause);
            max = Math.max(max, pause);
        }
        assertTrue(min < interval.toNanos() * 11 / 10 && max > interval.toNanos() * 19 / 10,
                "2,000 pauses cover the range: " + min + ".." + max);
    }

    @Test
    void retryCountZeroKeepsTryingUntilTheHolderReleases() throws Exception {
        HaspLock held = elsewhere.getLock("until-had");
        assertTrue(held.tryLock(Duration.ZERO, Duration.ofSeconds(60)));
        Inventory inventory = LockedProxies.create(Inventory.class, new RealInventory(), template());
        CompletableFuture<String> call = CompletableFuture.supplyAsync(inventory::untilHad, threads);
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> pauses.size() >= 5), "still trying after 5 pauses");
        assertFalse(call.isDone());
        held.unlock();
        assertEquals("had it", call.get(20, TimeUnit.SECONDS));
    }

    @Test
    void theSkipModeSkipsTheCallAndReturnsZero() throws Exception {
        HaspLock held = elsewhere.getLock("skipped");
        assertTrue(held.tryLock(Duration.ZERO, Duration.ofSeconds(30)));
        try {
            RealInventory real = new RealInventory();
            Inventory inventory = LockedProxies.create(Inventory.class, real, template());
            assertEquals(0, inventory.skipped());
            assertEquals(0, real.calls.get());
            assertEquals(1, pauses.size());
        } finally {
            held.unlock();
        }
        assertEquals(7, LockedProxies.create(Inventory.class, new RealInventory(), template()).skipped());
    }

    @Test
    void readersShareAndAWriterWaitsForThem() throws Exception {
        RealInventory real = new RealInventory();
        Inventory inventory = LockedProxies.create(Inventory.class, real, template());
        CountDownLatch inside = new CountDownLatch(2);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> read(inventory, inside, leave), threads);
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> read(inventory, inside, leave), threads);
        assertTrue(inside.await(20, TimeUnit.SECONDS), "two readers inside at once");
        assertThrows(LockUnavailableException.class, inventory::write, "the writer is refused while they read");
        leave.countDown();
        first.get(20, TimeUnit.SECONDS);
        second.get(20, TimeUnit.SECONDS);
        inventory.write();
        assertEquals(1, real.calls.get());
        assertFalse(HaspReadWriteLocks.get(client, "report").isLocked());
    }

    @Test
    void aFairLockServesTheCallInItsTurn() throws Exception {
        RealInventory real = new RealInventory();
        Inventory inventory = LockedProxies.create(Inventory.class, real, template());
        HaspLock held = elsewhere.getFairLock("line");
        LockOwner holder = held.owner(1);
        held.lockAsync(holder).get(20, TimeUnit.SECONDS);
        LockOwner ahead = held.owner(2);
        CompletableFuture<Void> first = held.lockAsync(ahead).thenCompose(granted -> {
            real.served.add("waiter ahead");
            return held.unlockAsync(ahead);
        });
        awaitLine(1);
        CompletableFuture<Void> call = CompletableFuture.runAsync(inventory::inLine, threads);
        awaitLine(2);
        held.unlockAsync(holder).get(20, TimeUnit.SECONDS);
        first.get(20, TimeUnit.SECONDS);
        call.get(20, TimeUnit.SECONDS);
        assertEquals(List.of("waiter ahead", "proxied call"), real.served);
        assertFalse(held.isLocked());
    }

    private static void awaitLine(int length) {
        assertTrue(Conditions.await(Duration.ofSeconds(20),
                () -> ((List<?>) probe.call("LRANGE", "redisson_lock_queue:{line}", "0", "-1")).size() == length),
                "a line of " + length + " within 20 s");
    }

    private static void read(Inventory inventory, CountDownLatch inside, CountDownLatch leave) {
        try {
            inventory.read(inside, leave);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anInterruptedWaitEndsTheCallWithTheInterruption() throws Exception {
        HaspLock held = elsewhere.getLock("until-had");
        assertTrue(held.tryLock(Duration.ZERO, Duration.ofSeconds(60)));
        try {
            Inventory inventory = LockedProxies.create(Inventory.class, new RealInventory(), template());
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    inventory.untilHad();
                    outcome.complete(null);
                } catch (Throwable e) {
                    outcome.complete(e);
                }
            });
            caller.start();
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> !pauses.isEmpty()));
            caller.interrupt();
            LockUnavailableException e = assertInstanceOf(LockUnavailableException.class, outcome.get(20, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class, e.getCause());
            caller.join(10_000);
        } finally {
            held.unlock();
        }
    }

    interface Misconfigured {
        @Locked(value = "bad", retryCount = -1)
        void negativeRetries();
    }

    interface ZeroInterval {
        @Locked(value = "bad", retryInterval = 0)
        void zeroInterval();
    }

    interface EmptyName {
        @Locked(value = "")
        void emptyName();
    }

    interface WithExpression {
        @Locked(value = "order", key = "#order.id")
        void pay(Object order);
    }

    @Test
    void badSettingsFailAtStartupNamingTheMethodAndTheSetting() {
        IllegalArgumentException expression = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(WithExpression.class, order -> { }, template()));
        assertTrue(expression.getMessage().startsWith("WithExpression.pay(Object): @Locked key: \"#order.id\""),
                expression.getMessage());
        IllegalArgumentException retries = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(Misconfigured.class, () -> { }, template()));
        assertTrue(retries.getMessage().startsWith("Misconfigured.negativeRetries(): @Locked retryCount: -1"),
                retries.getMessage());
        IllegalArgumentException interval = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(ZeroInterval.class, () -> { }, template()));
        assertTrue(interval.getMessage().startsWith("ZeroInterval.zeroInterval(): @Locked retryInterval: PT0S"),
                interval.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> LockedProxies.create(EmptyName.class, () -> { }, template()));
        assertTrue(name.getMessage().startsWith("EmptyName.emptyName(): @Locked value: \"\""), name.getMessage());
    }

    @Test
    void executeLockedRunsABlockAndRethrowsItsExceptionUnchanged() throws Exception {
        LockTemplate locks = template();
        assertEquals("done", locks.executeLocked("block", LockOptions.defaults(), () -> {
            assertTrue(elsewhere.getLock("block").isLocked());
            return "done";
        }));
        assertFalse(elsewhere.getLock("block").isLocked());
        IllegalStateException failure = new IllegalStateException("boom");
        assertSame(failure, assertThrows(IllegalStateException.class,
                () -> locks.executeLocked("block", LockOptions.defaults(), () -> {
                    throw failure;
                })));
        ExecutionException checked = new ExecutionException("checked", null);
        assertSame(checked, assertThrows(ExecutionException.class,
                () -> locks.executeLocked("block", LockOptions.defaults(), () -> {
                    throw checked;
                })));
        assertFalse(elsewhere.getLock("block").isLocked());
        assertThrows(IllegalArgumentException.class, () -> locks.executeLocked("", LockOptions.defaults(), () -> 1));
        assertNull(LockOptions.defaults().leaseTime(), "the watchdog by default");
    }

    @Test
    void aLeaseThatRanOutDuringTheBlockIsReportedAtTheRelease() {
        LockTemplate locks = template();
        LockOptions shortLease = LockOptions.builder().leaseTime(Duration.ofMillis(300)).build();
        RuntimeException e = assertThrows(RuntimeException.class, () -> locks.executeLocked("short", shortLease, () -> {
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> !elsewhere.getLock("short").isLocked()),
                    "the lease runs out while the block works");
            return "unprotected";
        }));
        assertInstanceOf(io.hasp.lock.HoldLostException.class, e);
    }

    private static long scriptCalls() {
        return probe.commandCalls("eval", "evalsha");
    }
}
