package io.hasp.it.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.inspect.ClientProcess;
import io.hasp.inspect.HeldLock;
import io.hasp.inspect.LockHolder;
import io.hasp.inspect.LockInfo;
import io.hasp.inspect.QueuedWaiter;
import io.hasp.it.lock.ChildJvm;
import io.hasp.it.lock.LockWorker;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The client's {@code LockInspector} on a real redis-server: a reentrant lock held twice by one owner, a fair lock with three
 * queued waiters in order, a read/write lock with two readers, a fenced lock after five tokens, a lock Redisson holds,
 * a free name, the synchronizers, the listeners of a waited-for lock, and bad input.
 */
@ExtendWith(RedisServerExtension.class)
class LockInspectionIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private static HaspClient hasp;
    private static HaspClient other;
    private static RedissonClient redisson;
    private static RedisProbe probe;

    @BeforeAll
    static void start(RedisServer server) {
        hasp = HaspClient.create(HaspConfig.builder().uri(server.uri()).clientName("inspection-test").build());
        other = HaspClient.create(server.uri());
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri());
        redisson = Redisson.create(config);
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        hasp.close();
        other.close();
        redisson.shutdown();
        probe.close();
    }

    @Test
    void aReentrantLockHeldTwiceByOneOwner() {
        HaspLock lock = hasp.getLock("inspect:reentrant");
        lock.lock();
        lock.lock();
        try {
            // begin-sample: inspect
            LockInfo info = hasp.inspector().inspect("inspect:reentrant");
            List<String> holders = new ArrayList<>();
            for (LockHolder holder : info.holders()) {
                holders.add((holder.isHasp() ? "hasp " : "other ") + holder.clientId() + " thread " + holder.holderId()
                        + " holds it " + holder.holdCount() + "x, lease left " + holder.leaseLeft());
            }
            // end-sample: inspect
            assertEquals(1, holders.size());
            assertTrue(holders.get(0).startsWith("hasp " + hasp.id() + " thread " + Thread.currentThread().getId()
                    + " holds it 2x, lease left PT"), holders.get(0));
            assertEquals(LockInfo.Kind.REENTRANT, info.kind());
            assertEquals(1, info.holders().size(), info.toString());
            LockHolder holder = info.holders().get(0);
            assertEquals(hasp.id() + ":" + Thread.currentThread().getId(), holder.owner());
            assertEquals(hasp.id(), holder.clientId());
            assertEquals(Thread.currentThread().getId(), holder.holderId());
            assertEquals(2, holder.holdCount());
            assertEquals(LockHolder.Mode.EXCLUSIVE, holder.mode());
            assertTrue(holder.isHasp());
            assertNotNull(info.leaseLeft());
            assertTrue(info.leaseLeft().compareTo(hasp.config().watchdogLease()) <= 0, info.toString());
            assertEquals(info.leaseLeft(), holder.leaseLeft());
            assertNull(info.fencingToken());
            assertTrue(info.isHeld());
            ClientProcess process = info.process(hasp.id()).orElseThrow();
            assertEquals("inspection-test", process.application(), "the client's configured name");
            assertEquals(ProcessHandle.current().pid(), process.pid());
            assertFalse(process.host().isEmpty());
            assertTrue(process.describe().startsWith("inspection-test on " + process.host() + ", pid "), process.describe());
        } finally {
            lock.unlock();
            lock.unlock();
        }
    }

    @Test
    void aFreeNameReadsAsNothing() throws Exception {
        LockInfo info = hasp.inspector().inspectAsync("inspect:nobody").get(10, TimeUnit.SECONDS);
        assertEquals(LockInfo.Kind.NONE, info.kind());
        assertFalse(info.isHeld());
        assertNull(info.leaseLeft());
        assertTrue(info.queue().isEmpty());
        assertTrue(info.waitingProcesses().isEmpty());
        assertNull(info.turn());
        assertEquals(0, info.listeners());
        assertTrue(Math.abs(info.readAt().toEpochMilli() - System.currentTimeMillis()) < 60_000, info.toString());
    }

    @Test
    void aFairLockShowsItsQueueInOrder() throws Exception {
        String name = "inspect:fair";
        HaspLock lock = hasp.getFairLock(name);
        lock.lock();
        HaspLock elsewhere = other.getFairLock(name);
        List<LockOwner> waiters = new ArrayList<>();
        List<CompletableFuture<Void>> waits = new ArrayList<>();
        try {
            for (int i = 1; i <= 3; i++) {
                LockOwner owner = elsewhere.owner(100 + i);
                waiters.add(owner);
                waits.add(elsewhere.lockAsync(owner));
                int queued = i;
                assertTrue(Conditions.await(SLACK, () -> hasp.inspector().inspect(name).queue().size() == queued), "waiter " + i);
            }
            LockInfo info = hasp.inspector().inspect(name);
            assertEquals(LockInfo.Kind.FAIR, info.kind());
            assertEquals(1, info.holders().size());
            assertEquals(hasp.id(), info.holders().get(0).clientId());
            List<QueuedWaiter> queue = info.queue();
            for (int i = 0; i < 3; i++) {
                QueuedWaiter waiter = queue.get(i);
                assertEquals(other.id(), waiter.clientId());
                assertEquals(100L + i + 1, waiter.holderId(), "the order they came in: " + queue);
                assertTrue(waiter.isHasp());
                assertNotNull(waiter.placeLeft(), "a hasp waiter's place");
                assertTrue(waiter.placeLeft().compareTo(other.config().watchdogLease()) <= 0, waiter.toString());
                assertNotNull(waiter.deadline(), "Redisson's deadline, kept by hasp too");
                if (i > 0) {
                    assertFalse(waiter.deadline().isBefore(queue.get(i - 1).deadline()), "deadlines in line order: " + queue);
                }
            }
        } finally {
            lock.unlock();
            for (int i = 0; i < 3; i++) {
                waits.get(i).get(30, TimeUnit.SECONDS);
                elsewhere.unlockAsync(waiters.get(i)).get(30, TimeUnit.SECONDS);
            }
        }
        assertEquals(LockInfo.Kind.NONE, hasp.inspector().inspect(name).kind());
    }

    @Test
    void aReadWriteLockWithTwoReaders() throws Exception {
        HaspReadWriteLock rw = HaspReadWriteLocks.get(hasp, "inspect:rw");
        HaspLock read = rw.readLock();
        LockOwner first = read.owner(1);
        LockOwner second = read.owner(2);
        read.lockAsync(first).get(10, TimeUnit.SECONDS);
        read.lockAsync(second).get(10, TimeUnit.SECONDS);
        read.lockAsync(second).get(10, TimeUnit.SECONDS);
        try {
            LockInfo info = hasp.inspector().inspect("inspect:rw");
            assertEquals(LockInfo.Kind.READ_WRITE, info.kind());
            assertEquals(2, info.holders().size(), info.toString());
            for (LockHolder holder : info.holders()) {
                assertEquals(LockHolder.Mode.READ, holder.mode());
                assertEquals(hasp.id(), holder.clientId());
                assertEquals(holder.holderId() == 1L ? 1 : 2, holder.holdCount(), holder.toString());
                assertNotNull(holder.leaseLeft(), "a read hold's own lease");
            }
        } finally {
            read.unlockAsync(first).get(10, TimeUnit.SECONDS);
            read.unlockAsync(second).get(10, TimeUnit.SECONDS);
            read.unlockAsync(second).get(10, TimeUnit.SECONDS);
        }
        HaspLock write = rw.writeLock();
        write.lock();
        try {
            LockInfo info = hasp.inspector().inspect("inspect:rw");
            assertEquals(1, info.holders().size(), info.toString());
            assertEquals(LockHolder.Mode.WRITE, info.holders().get(0).mode());
            assertEquals(Thread.currentThread().getId(), info.holders().get(0).holderId());
        } finally {
            write.unlock();
        }
    }

    @Test
    void aFencedLockAfterFiveTokens() {
        FencedLock lock = hasp.getFencedLock("inspect:fenced");
        long last = 0;
        for (int i = 0; i < 5; i++) {
            last = lock.lockAndGetToken();
            if (i < 4) {
                lock.unlock();
            }
        }
        try {
            LockInfo info = hasp.inspector().inspect("inspect:fenced");
            assertEquals(LockInfo.Kind.FENCED, info.kind());
            assertEquals(last, info.fencingToken());
            assertEquals(1, info.holders().size());
        } finally {
            lock.unlock();
        }
        LockInfo free = hasp.inspector().inspect("inspect:fenced");
        assertEquals(LockInfo.Kind.FENCED, free.kind(), "the token counter outlives the hold");
        assertFalse(free.isHeld());
        assertEquals(last, free.fencingToken());
    }

    @Test
    void aLockRedissonHolds() {
        RLock lock = redisson.getLock("inspect:redisson");
        lock.lock();
        try {
            LockInfo info = hasp.inspector().inspect("inspect:redisson");
            assertEquals(LockInfo.Kind.REENTRANT, info.kind());
            LockHolder holder = info.holders().get(0);
            assertEquals(redisson.getId(), holder.clientId());
            assertEquals(Thread.currentThread().getId(), holder.holderId());
            assertFalse(holder.isHasp());
            assertEquals(1, holder.holdCount());
            assertTrue(info.process(holder.clientId()).isEmpty(), "Redisson keeps no record");
        } finally {
            lock.unlock();
        }
    }

    @Test
    void aWaitedForLockShowsItsListeners() throws Exception {
        String name = "inspect:waited";
        HaspLock lock = hasp.getLock(name);
        lock.lock();
        HaspLock elsewhere = other.getLock(name);
        LockOwner waiter = elsewhere.owner(7);
        CompletableFuture<Void> wait = elsewhere.lockAsync(waiter);
        try {
            assertTrue(Conditions.await(SLACK, () -> hasp.inspector().inspect(name).listeners() >= 1
                    && hasp.inspector().inspect(name).waitingProcesses().equals(List.of(other.id()))),
                    "the other client waits in line and listens for its turn: " + hasp.inspector().inspect(name));
        } finally {
            lock.unlock();
        }
        wait.get(30, TimeUnit.SECONDS);
        elsewhere.unlockAsync(waiter).get(10, TimeUnit.SECONDS);
    }

    @Test
    void synchronizersReadAsNumbers() throws Exception {
        HaspSemaphore semaphore = hasp.getSemaphore("inspect:semaphore");
        assertTrue(semaphore.trySetPermits(5));
        semaphore.acquire(2);
        LockInfo info = hasp.inspector().inspect("inspect:semaphore");
        assertEquals(LockInfo.Kind.NUMBER, info.kind());
        assertEquals(3L, info.value());
        assertFalse(info.isHeld());
        semaphore.release(2);

        HaspPermitExpirableSemaphore leases = hasp.getPermitExpirableSemaphore("inspect:leases");
        assertTrue(leases.trySetPermits(3));
        String id = leases.acquire(Duration.ofMinutes(1));
        LockInfo leased = hasp.inspector().inspect("inspect:leases");
        assertEquals(LockInfo.Kind.PERMIT_EXPIRABLE_SEMAPHORE, leased.kind());
        assertEquals(2L, leased.value());
        assertEquals(1, leased.leasedPermits());
        leases.release(id);

        probe.call("SET", "inspect:text", "not a number");
        assertEquals(LockInfo.Kind.OTHER, hasp.inspector().inspect("inspect:text").kind());
        probe.call("HSET", "inspect:hash", "colour", "blue");
        LockInfo hash = hasp.inspector().inspect("inspect:hash");
        assertEquals(LockInfo.Kind.OTHER, hash.kind());
        assertFalse(hash.isHeld());
    }

    @Test
    void aHolderProcessIsNamedWhileItRunsAndItsRecordIsGoneALeaseAfterItIsKilled(RedisServer server) throws Exception {
        String name = "inspect:killed";
        try (ChildJvm jvm = ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=hold", "uri=" + server.uri(),
                "lock=" + name, "watchdog=2000")) {
            assertNotNull(jvm.awaitLine("LOCKED ", SLACK), jvm.output());
            LockInfo info = hasp.inspector().inspect(name);
            String client = info.holders().get(0).clientId();
            ClientProcess process = info.process(client).orElseThrow(() -> new AssertionError(info.toString()));
            assertEquals(jvm.pid(), process.pid());
            assertEquals(LockWorker.class.getName(), process.application(), "no configured name: the main class");
            String record = "hasp_client:{" + client + "}";
            assertEquals(1L, probe.call("EXISTS", record), "the live client's record");
            jvm.kill();
            assertTrue(Conditions.await(SLACK, () -> Long.valueOf(0).equals(probe.call("EXISTS", record))),
                    "the killed client's record expired");
            assertTrue(Conditions.await(SLACK, () -> hasp.inspector().inspect(name).kind() == LockInfo.Kind.NONE), "its lock too");
        }
    }

    @Test
    void aClosedClientDeletesItsRecord(RedisServer server) {
        HaspClient closing = HaspClient.create(server.uri());
        String record = "hasp_client:{" + closing.id() + "}";
        assertTrue(Conditions.await(SLACK, () -> Long.valueOf(1).equals(probe.call("EXISTS", record))), "written at start");
        assertTrue((Long) probe.call("PTTL", record) <= closing.config().watchdogLease().toMillis());
        closing.close();
        assertEquals(0L, probe.call("EXISTS", record), "deleted by close");
    }

    @Test
    void theClientsOwnHoldsAndAListingOfLocks() throws Exception {
        HaspLock first = hasp.getLock("inspect:list:1");
        FencedLock second = hasp.getFencedLock("inspect:list:2");
        HaspLock elsewhere = other.getLock("inspect:list:3");
        first.lock(30, TimeUnit.SECONDS);
        long token = second.lockAndGetToken();
        elsewhere.lock();
        probe.call("SET", "inspect:list:text", "not a lock");
        try {
            List<HeldLock> holds = hasp.inspector().holds();
            HeldLock held = holds.stream().filter(h -> h.name().equals("inspect:list:1")).findFirst().orElseThrow();
            assertEquals("reentrant", held.kind());
            assertEquals(hasp.id(), held.owner().clientId());
            assertEquals(Thread.currentThread().getId(), held.owner().holderId());
            assertEquals(1, held.holdCount());
            assertFalse(held.watchdog());
            assertTrue(held.leaseLeft().compareTo(Duration.ofSeconds(30)) <= 0 && !held.leaseLeft().isZero(), held.toString());
            assertTrue(!held.heldSince().isAfter(java.time.Instant.now()), held.toString());
            HeldLock fenced = holds.stream().filter(h -> h.name().equals("inspect:list:2")).findFirst().orElseThrow();
            assertEquals("fenced", fenced.kind());
            assertEquals(token, fenced.fencingToken());
            assertTrue(fenced.watchdog());
            assertTrue(holds.stream().noneMatch(h -> h.name().equals("inspect:list:3")), "another client's hold");

            assertEquals(java.util.Set.of("inspect:list:1", "inspect:list:2", "inspect:list:3"),
                    new java.util.HashSet<>(hasp.inspector().locks("inspect:list:*", 1_000)), "the locks, not the string");
            assertEquals(1, hasp.inspector().locks("inspect:list:*", 1).size());
            assertTrue(hasp.inspector().locks("inspect:nothing:*", 10).isEmpty());
            assertEquals(1L, probe.call("EXISTS", "hasp_client:{" + hasp.id() + "}"), "the client's record is a hash");
            assertTrue(hasp.inspector().locks("*", 100_000).stream().noneMatch(name -> name.startsWith("hasp_client:")),
                    "the clients' records are not listed as locks");
        } finally {
            first.unlock();
            second.unlock();
            elsewhere.unlock();
        }
        assertThrows(IllegalArgumentException.class, () -> hasp.inspector().locks("", 10));
        assertThrows(IllegalArgumentException.class, () -> hasp.inspector().locks("*", 0));
        assertThrows(IllegalArgumentException.class, () -> hasp.inspector().locksAsync("*", 100_001));
    }

    @Test
    void badInputIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> hasp.inspector().inspect(""));
        assertThrows(IllegalArgumentException.class, () -> hasp.inspector().inspectAsync(null));
    }
}
