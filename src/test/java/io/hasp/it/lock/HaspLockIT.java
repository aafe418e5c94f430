package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.internal.ClientInternals;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reentrant lock's semantics against real redis-server processes: every test runs on one
 * server, again on a local Redis Cluster and again behind Redis Sentinel ({@link Topology}).
 */
@ParameterizedClass
@EnumSource(Topology.class)
class HaspLockIT {

    private static TopologyServers servers;
    private static HaspClient client;
    private static HaspClient other;
    private static HaspClient shortWatchdog;

    @Parameter
    Topology topology;

    private String name;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
        client = Clients.hasp(servers.uri(), seconds(30));
        other = Clients.hasp(servers.uri(), seconds(30));
        shortWatchdog = Clients.hasp(servers.uri(), Duration.ofMillis(1_500));
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        try {
            client.close();
            other.close();
            shortWatchdog.close();
        } finally {
            servers.close();
        }
    }

    @org.junit.jupiter.api.BeforeEach
    void name(TestInfo test) {
        name = "it:" + test.getTestMethod().orElseThrow().getName();
    }

    /**
     * The channel on which the waiters of {@code waiting} listen behind a hasp holder: their client's turn channel,
     * or the lock's unlock channel where processes take no turns (a Redis 6 cluster).
     */
    private String turns(HaspClient waiting) {
        return servers.publishCountsListeners() ? "hasp_lock_turn__channel:{" + name + "}:" + waiting.id()
                : "redisson_lock__channel:{" + name + "}";
    }

    /** Runs {@code body} on a new thread and returns its completion. */
    private static CompletableFuture<Void> onThread(ThrowingRunnable body) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return done;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void reentrantHoldsCountUpAndDownAndTheLastUnlockDeletesAndPublishes() throws Exception {
        List<String> messages = new CopyOnWriteArrayList<>();
        var subscription = ClientInternals.pubSub(other).subscribe("redisson_lock__channel:{" + name + "}",
                (channel, message) -> messages.add(message)).get(10, TimeUnit.SECONDS);
        try {
            HaspLock lock = client.getLock(name);
            lock.lock();
            lock.lock();
            String field = lock.currentOwner().field();
            assertEquals(client.id() + ":" + Thread.currentThread().getId(), field);
            assertEquals("2", servers.call(name, "HGET", name, field));
            assertEquals(2, lock.getHoldCount());
            assertTrue(lock.isHeldByCurrentThread());

            lock.unlock();
            assertEquals("1", servers.call(name, "HGET", name, field));
            assertTrue(lock.isLocked());
            assertEquals(List.of(), messages);

            lock.unlock();
            assertEquals(0L, servers.call(name, "EXISTS", name));
            assertFalse(lock.isLocked());
            assertEquals(0, lock.getHoldCount());
            await("the unlock message", seconds(10), () -> messages.equals(List.of("0")));
        } finally {
            subscription.unsubscribe().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void unlockByANonHolderThrowsAndLeavesTheLockUntouched() throws Exception {
        HaspLock lock = client.getLock(name);
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "nobody holds it");

        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = onThread(() -> {
            lock.lock();
            lock.lock();
            held.countDown();
            release.await();
            lock.unlock();
            lock.unlock();
        });
        assertTrue(held.await(10, TimeUnit.SECONDS));
        assertThrows(IllegalMonitorStateException.class, lock::unlock, "another thread holds it");
        assertThrows(IllegalMonitorStateException.class, () -> other.getLock(name).unlock(), "another client");
        List<?> hash = (List<?>) servers.call(name, "HGETALL", name);
        assertEquals(2, hash.size());
        assertEquals("2", hash.get(1));
        release.countDown();
        holder.get(10, TimeUnit.SECONDS);
        assertFalse(lock.isLocked());
    }

    @Test
    void aGivenLeaseExpiresAndIsNeverRenewed() throws Exception {
        HaspLock lock = shortWatchdog.getLock(name);
        lock.lock(2, TimeUnit.SECONDS);
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        long ttl = lock.remainTimeToLive();
        assertTrue(ttl > 0 && ttl <= 2_000, "ttl " + ttl);
        await("the lease to run out while the watchdog is active on this client", seconds(10), () -> !lock.isLocked());
        assertEquals(HoldEnd.EXPIRED, end.get(10, TimeUnit.SECONDS));
    }

    @Test
    void theWatchdogKeepsALockWithoutLeaseAliveUntilUnlock() throws Exception {
        HaspLock lock = shortWatchdog.getLock(name);
        lock.lock();
        long[] last = {lock.remainTimeToLive()};
        int[] renewals = {0};
        await("six renewals of a 1.5 s lease", seconds(30), () -> {
            long ttl = lock.remainTimeToLive();
            assertTrue(ttl > 0, "the lock expired although the watchdog should renew it: " + ttl);
            if (ttl > last[0]) {
                renewals[0]++;
            }
            last[0] = ttl;
            return renewals[0] >= 6;
        });
        assertTrue(lock.isHeldByCurrentThread());
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        assertFalse(end.isDone());
        lock.unlock();
        assertEquals(HoldEnd.RELEASED, end.get(10, TimeUnit.SECONDS));
        assertFalse(lock.isLocked());
    }

    @Test
    void theClientReportsItsHoldsAndRenewals() throws Exception {
        int before = shortWatchdog.heldLocks();
        HaspLock first = shortWatchdog.getLock(name + ":1");
        HaspLock second = shortWatchdog.getLock(name + ":2");
        first.lock();
        second.lock();
        assertEquals(before + 2, shortWatchdog.heldLocks());
        long renewals = shortWatchdog.renewalCalls();
        await("a renewal pass of the 1.5 s watchdog", Duration.ofSeconds(20), () -> shortWatchdog.renewalCalls() > renewals);
        first.unlock();
        second.unlock();
        assertEquals(before, shortWatchdog.heldLocks());
    }

    @Test
    void aWatchdogHoldFoundGoneSignalsLost() throws Exception {
        HaspLock lock = shortWatchdog.getLock(name);
        lock.lock();
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        servers.call(name, "DEL", name);
        assertEquals(HoldEnd.LOST, end.get(10, TimeUnit.SECONDS));
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void aWaiterIsWokenByTheUnlockLongBeforeTheHoldersLeaseRunsOut() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();  // watchdog: 30 s lease, renewed
        CompletableFuture<Boolean> otherClient = other.getLock(name).tryLockAsync(seconds(20), other.getLock(name).owner(1));
        CompletableFuture<Boolean> sameClient = client.getLock(name).tryLockAsync(seconds(20), lock.owner(2));
        await("both waiters subscribed", seconds(10), () -> servers.publishCountsListeners()
                ? servers.subscribers(turns(other)) == 1 && servers.subscribers(turns(client)) == 1
                : servers.subscribers(turns(other)) >= 2);
        assertFalse(otherClient.isDone() || sameClient.isDone());
        lock.unlock();
        // One of them gets the lock now; when it gives it back the other one gets it: all by messages
        // and local hand-off, within 20 s although the lease is 30 s.
        CompletableFuture<?> first = CompletableFuture.anyOf(otherClient, sameClient);
        assertEquals(true, first.get(20, TimeUnit.SECONDS));
        if (sameClient.isDone()) {
            client.getLock(name).unlockAsync(lock.owner(2)).get(10, TimeUnit.SECONDS);
            assertTrue(otherClient.get(20, TimeUnit.SECONDS));
            other.getLock(name).unlockAsync(other.getLock(name).owner(1)).get(10, TimeUnit.SECONDS);
        } else {
            other.getLock(name).unlockAsync(other.getLock(name).owner(1)).get(10, TimeUnit.SECONDS);
            assertTrue(sameClient.get(20, TimeUnit.SECONDS));
            client.getLock(name).unlockAsync(lock.owner(2)).get(10, TimeUnit.SECONDS);
        }
        // A release may have granted the lock to an owner whose process then found it waiting no more: that
        // process gives it back at once.
        await("the lock free", seconds(10), () -> !lock.isLocked());
    }

    @Test
    void aWaiterWithoutAnUnlockMessageGetsTheLockWhenTheLeaseRunsOut() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock(1, TimeUnit.SECONDS);  // never unlocked: no message will come
        HaspLock theirs = other.getLock(name);
        assertTrue(theirs.tryLockAsync(seconds(20), Duration.ofSeconds(5), theirs.owner(9)).get(30, TimeUnit.SECONDS));
        assertTrue(theirs.isHeldBy(theirs.owner(9)));
        theirs.unlockAsync(theirs.owner(9)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void tryLockReturnsFalseAtItsDeadlineAndNotBefore() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        try {
            long start = System.nanoTime();
            boolean acquired = other.getLock(name).tryLockAsync(Duration.ofMillis(300), other.getLock(name).owner(1))
                    .get(20, TimeUnit.SECONDS);
            assertFalse(acquired);
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300), "returned false early");
            assertFalse(other.getLock(name).tryLock(), "one attempt");
        } finally {
            lock.unlock();
        }
    }

    @Test
    void interruptingAWaiterThrowsAndLeavesNothingBehind() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch ended = new CountDownLatch(1);
        HaspLock theirs = other.getLock(name);
        Thread waiter = new Thread(() -> {
            try {
                theirs.lockInterruptibly();
                outcome.set(new AssertionError("acquired a held lock"));
            } catch (Throwable e) {
                outcome.set(e);
            } finally {
                ended.countDown();
            }
        });
        waiter.start();
        String channel = turns(other);
        await("the waiter subscribed", seconds(10), () -> servers.subscribers(channel) == 1);
        waiter.interrupt();
        assertTrue(ended.await(10, TimeUnit.SECONDS));
        assertInstanceOf(InterruptedException.class, outcome.get());
        await("the subscription released", seconds(10), () -> servers.subscribers(channel) == 0);
        lock.unlock();
        assertFalse(lock.isLocked(), "the interrupted waiter took nothing");
        waiter.join(10_000);
    }

    @Test
    void cancellingAnAsyncAcquisitionLeavesNoHoldBehind() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        HaspLock theirs = other.getLock(name);
        LockOwner owner = theirs.owner(5);
        CompletableFuture<Void> waiting = theirs.lockAsync(owner);
        String channel = turns(other);
        await("the waiter subscribed", seconds(10), () -> servers.subscribers(channel) == 1);
        assertTrue(waiting.cancel(false));
        lock.unlock();
        await("the subscription released", seconds(10), () -> servers.subscribers(channel) == 0);
        assertFalse(theirs.isHeldBy(owner));
        assertFalse(lock.isLocked());
    }

    @Test
    void aBlockingLockRightAfterAnUnlockNotWaitedForHoldsTheLockOnce() throws Exception {
        HaspLock lock = client.getLock(name);
        for (int round = 0; round < 50; round++) {
            lock.lock();
            CompletableFuture<Void> unlock = lock.unlockAsync(lock.currentOwner());
            lock.lock();   // on the calling thread's own connection, which could overtake the unlock's
            unlock.get(10, TimeUnit.SECONDS);
            assertEquals(1, lock.getHoldCount(), "round " + round);
            lock.unlock();
            assertFalse(lock.isLocked(), "round " + round);
        }
    }

    @Test
    void theAsyncApiNamesItsOwnerAndMayReleaseFromAnotherThread() throws Exception {
        HaspLock lock = client.getLock(name);
        LockOwner owner = lock.owner(42);
        lock.lockAsync(owner).get(10, TimeUnit.SECONDS);
        lock.lockAsync(Duration.ofSeconds(20), owner).get(10, TimeUnit.SECONDS);
        assertTrue(lock.isHeldBy(owner));
        assertEquals(2, lock.getHoldCountAsync(owner).get());
        assertFalse(lock.isHeldByCurrentThread());
        onThread(() -> {
            lock.unlockAsync(owner).get(10, TimeUnit.SECONDS);
            lock.unlockAsync(owner).get(10, TimeUnit.SECONDS);
        }).get(20, TimeUnit.SECONDS);
        assertFalse(lock.isLocked());
        ExecutionException e = assertThrows(ExecutionException.class, () -> lock.unlockAsync(owner).get());
        assertInstanceOf(IllegalMonitorStateException.class, e.getCause());
    }

    @Test
    void forceUnlockFreesTheLockAndWakesAWaiter() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        HaspLock theirs = other.getLock(name);
        CompletableFuture<Boolean> waiter = theirs.tryLockAsync(seconds(20), theirs.owner(3));
        await("the waiter subscribed", seconds(10), () -> servers.subscribers(turns(other)) == 1);
        assertTrue(theirs.forceUnlock());
        assertTrue(waiter.get(20, TimeUnit.SECONDS));
        assertTrue(theirs.forceUnlock());
        assertFalse(theirs.forceUnlock());
        assertNull(servers.call(name, "HGET", name, lock.currentOwner().field()));
    }

    @Test
    void closingTheClientStopsRenewalAndTheLeaseRunsOut() throws Exception {
        HaspClient closing = Clients.hasp(servers.uri(), Duration.ofMillis(1_500));
        HaspLock lock = closing.getLock(name);
        lock.lock();
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        closing.close();
        assertEquals(HoldEnd.CLIENT_CLOSED, end.get(10, TimeUnit.SECONDS));
        HaspLock theirs = client.getLock(name);
        await("the lease to run out without renewal", seconds(10), () -> !theirs.isLocked());
    }

    @Test
    void scriptsFlushedMidRunAreLoadedAgain() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        servers.flushScripts();
        lock.lock();
        assertEquals(2, lock.getHoldCount());
        servers.flushScripts();
        lock.unlock();
        lock.unlock();
        assertFalse(lock.isLocked());
    }
}
