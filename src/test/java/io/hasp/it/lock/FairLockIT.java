package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * hasp's fair lock end to end, on one server, again on a local Redis Cluster and again behind Redis Sentinel
 * ({@link Topology}): waiters of several clients get the lock in the order they came, a thread of the holder's own
 * client does not pass the line, a waiter that gives up (deadline, cancel, interrupt) leaves the line at once and
 * the next one is woken, and the lock is the reentrant lock in every other respect.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class FairLockIT {

    private static final Duration SLACK = Duration.ofSeconds(30);

    private static TopologyServers servers;
    private static HaspClient a;
    private static HaspClient b;
    private static HaspClient c;

    @Parameter
    Topology topology;

    private String name;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
        a = Clients.hasp(servers.uri(), seconds(30));
        b = Clients.hasp(servers.uri(), seconds(30));
        c = Clients.hasp(servers.uri(), seconds(60));
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        try {
            a.close();
            b.close();
            c.close();
        } finally {
            servers.close();
        }
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "fair:" + test.getTestMethod().orElseThrow().getName();
    }

    private List<?> line() {
        String queue = "redisson_lock_queue:{" + name + "}";
        return (List<?>) servers.call(queue, "LRANGE", queue, "0", "-1");
    }

    private void awaitLine(int length) throws InterruptedException {
        await("a line of " + length, SLACK, () -> line().size() == length);
    }

    private long queueKeys() {
        return (Long) servers.call(name, "EXISTS", "redisson_lock_queue:{" + name + "}", "redisson_lock_timeout:{" + name + "}",
                "hasp_lock_places:{" + name + "}");
    }

    @Test
    void waitersOfSeveralClientsGetTheLockInTheOrderTheyCame() throws Exception {
        HaspLock held = a.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);

        // The first waiter is of another client, the second of the holder's own: no hand-over passes the line.
        HaspClient[] clients = {b, a, c};
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            int number = i;
            HaspLock lock = clients[i % 3].getFairLock(name);
            LockOwner owner = lock.owner(i + 1);
            done.add(lock.lockAsync(owner).thenCompose(granted -> {
                order.add(number);
                return lock.unlockAsync(owner);
            }));
            awaitLine(i + 1);
        }
        held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals(IntStream.range(0, 9).boxed().toList(), order);
        await("the line's keys gone", SLACK, () -> queueKeys() == 0);
        assertEquals(0L, servers.call(name, "EXISTS", name));
    }

    @Test
    void aWaiterThatGivesUpLeavesTheLineAtOnce() throws Exception {
        HaspLock held = a.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        HaspLock lock = b.getFairLock(name);

        assertFalse(lock.tryLock(Duration.ofMillis(300), Duration.ofSeconds(30)), "its wait time passed");
        await("the timed-out waiter left", SLACK, () -> line().isEmpty());

        CompletableFuture<Void> cancelled = lock.lockAsync(lock.owner(2));
        awaitLine(1);
        cancelled.cancel(false);
        await("the cancelled waiter left", SLACK, () -> line().isEmpty());

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                lock.lockInterruptibly();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        waiter.start();
        awaitLine(1);
        waiter.interrupt();
        waiter.join(SLACK.toMillis());
        assertTrue(thrown.get() instanceof InterruptedException, String.valueOf(thrown.get()));
        await("the interrupted waiter left", SLACK, () -> line().isEmpty());
        await("and its keys with it", SLACK, () -> queueKeys() == 0);

        held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        assertFalse(lock.isLocked(), "none of them took the lock on the way out");
    }

    @Test
    void theUnlockWakesTheWaiterBehindOneThatGaveUp() throws Exception {
        HaspLock held = a.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        HaspLock ahead = b.getFairLock(name);
        CompletableFuture<Void> givesUp = ahead.lockAsync(ahead.owner(1));
        awaitLine(1);
        // Client c parks for a third of its 60 s watchdog lease between looks: only a wake-up brings it in sooner.
        HaspLock behind = c.getFairLock(name);
        LockOwner second = behind.owner(2);
        CompletableFuture<Void> next = behind.lockAsync(second);
        awaitLine(2);
        givesUp.cancel(false);   // the lock is held: nothing can be granted to it meanwhile
        awaitLine(1);

        held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        next.get(15, TimeUnit.SECONDS);
        assertTrue(behind.isHeldBy(second));
        behind.unlockAsync(second).get(10, TimeUnit.SECONDS);
    }

    @Test
    void itIsTheReentrantLockInEveryOtherRespect() throws Exception {
        HaspLock lock = a.getFairLock(name);
        lock.lock();
        lock.lock();
        assertEquals("2", servers.call(name, "HGET", name, lock.currentOwner().field()), "Redisson's hash, re-entered");
        assertTrue(lock.isHeldByCurrentThread());
        assertEquals(2, lock.getHoldCount());
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        lock.unlock();
        lock.unlock();
        assertEquals(HoldEnd.RELEASED, end.get(10, TimeUnit.SECONDS));
        assertFalse(lock.isLocked());

        assertTrue(lock.tryLock(Duration.ZERO, Duration.ofMillis(200)));
        await("the lease ran out", SLACK, () -> !lock.isLocked());
        HaspLock other = b.getFairLock(name);
        assertTrue(other.tryLock(Duration.ZERO, Duration.ofSeconds(30)));
        assertTrue(other.forceUnlock());
        assertFalse(other.isLocked());
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void aTryWithoutWaitNeitherPassesTheLineNorTakesAPlace() throws Exception {
        HaspLock held = a.getFairLock(name);
        LockOwner holder = held.owner(1_000);
        held.lockAsync(holder).get(10, TimeUnit.SECONDS);
        HaspLock lock = b.getFairLock(name);
        LockOwner waiting = lock.owner(1);
        CompletableFuture<Void> first = lock.lockAsync(waiting);
        awaitLine(1);
        held.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        first.get(10, TimeUnit.SECONDS);
        HaspLock latecomer = c.getFairLock(name);
        assertFalse(latecomer.tryLock(), "held by the first in line");
        assertEquals(List.of(), line(), "the latecomer took no place, not even for a moment");
        lock.unlockAsync(waiting).get(10, TimeUnit.SECONDS);
        assertTrue(latecomer.tryLock());
        latecomer.unlock();
    }
}
