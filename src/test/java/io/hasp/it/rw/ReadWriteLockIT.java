package io.hasp.it.rw;

import static io.hasp.it.rw.RwTesting.DEADLINE;
import static io.hasp.it.rw.RwTesting.exists;
import static io.hasp.it.rw.RwTesting.get;
import static io.hasp.it.rw.RwTesting.pttl;
import static io.hasp.it.rw.RwTesting.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.Replies;
import io.hasp.internal.ClientInternals;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.lock.rw.LockUpgradeException;
import io.hasp.lock.rw.ModeLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The read/write lock's semantics against real redis-server processes, with two hasp clients:
 * every test runs on one server, again on a local Redis Cluster and again behind Redis Sentinel ({@link Topology}).
 */
@ParameterizedClass
@EnumSource(Topology.class)
class ReadWriteLockIT {

    private static TopologyServers servers;

    @Parameter
    Topology topology;

    private HaspClient one;
    private HaspClient two;
    private String name;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        servers.close();
    }

    @BeforeEach
    void connect(TestInfo test) {
        one = RwTesting.client(servers.uri());
        two = RwTesting.client(servers.uri());
        name = "rw-" + test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void close() {
        one.close();
        two.close();
    }

    /** Every key on the node that serves {@code lockName}'s slot, where all of that lock's keys live. */
    @SuppressWarnings("unchecked")
    private static List<String> keysBeside(String lockName) {
        return (List<String>) servers.call(lockName, "KEYS", "*");
    }

    private HaspReadWriteLock lockOf(HaspClient client) {
        return HaspReadWriteLocks.of(client).get(name);
    }

    @Test
    void readersShareAndWritersExcludeEveryone() {
        HaspReadWriteLock a = lockOf(one);
        HaspReadWriteLock b = lockOf(two);
        LockOwner ownerA = a.readLock().owner(1);
        LockOwner ownerB = b.readLock().owner(1);

        assertTrue(get(a.readLock().tryLockAsync(ownerA)));
        assertTrue(get(b.readLock().tryLockAsync(ownerB)), "a second reader shares");
        assertTrue(a.readLock().isLocked());
        assertFalse(a.writeLock().isLocked());
        assertFalse(get(b.writeLock().tryLockAsync(b.writeLock().owner(2))), "a writer waits for readers");

        get(a.readLock().unlockAsync(ownerA));
        get(b.readLock().unlockAsync(ownerB));
        assertFalse(a.isLocked());

        assertTrue(get(a.writeLock().tryLockAsync(ownerA)));
        assertTrue(b.writeLock().isLocked());
        assertFalse(get(b.readLock().tryLockAsync(ownerB)), "a reader waits for the writer");
        assertFalse(get(b.writeLock().tryLockAsync(ownerB)), "a writer waits for the writer");
        assertFalse(get(a.readLock().tryLockAsync(a.readLock().owner(2))), "another owner of the same client too");
        get(a.writeLock().unlockAsync(ownerA));
        assertFalse(b.isLocked());
    }

    @Test
    void bothModesAreReentrant() {
        HaspReadWriteLock rw = lockOf(one);
        rw.readLock().lock();
        rw.readLock().lock();
        assertEquals(2, rw.readLock().getHoldCount());
        assertTrue(rw.readLock().isHeldByCurrentThread());
        rw.readLock().unlock();
        assertEquals(1, rw.readLock().getHoldCount());
        rw.readLock().unlock();
        assertEquals(0, rw.readLock().getHoldCount());
        assertFalse(rw.isLocked());

        rw.writeLock().lock();
        assertTrue(rw.writeLock().tryLock());
        assertEquals(2, rw.writeLock().getHoldCount());
        rw.writeLock().unlock();
        assertTrue(rw.writeLock().isLocked());
        assertFalse(get(lockOf(two).readLock().tryLockAsync(lockOf(two).readLock().owner(1))));
        rw.writeLock().unlock();
        assertFalse(rw.isLocked());
    }

    @Test
    void theWriteLockTakenRightAfterAReadUnlockNotWaitedForIsAnUpgradeNoMore() {
        HaspReadWriteLock rw = lockOf(one);
        for (int round = 0; round < 20; round++) {
            rw.readLock().lock();
            var unlock = rw.readLock().unlockAsync();
            rw.writeLock().lock();   // waits for that unlock's answer instead of finding its own read hold
            get(unlock);
            assertTrue(rw.writeLock().isHeldByCurrentThread(), "round " + round);
            assertFalse(rw.readLock().isHeldByCurrentThread(), "round " + round);
            rw.writeLock().unlock();
        }
        assertFalse(exists(one, name));
    }

    @Test
    void writerDowngradesToReader() {
        HaspReadWriteLock rw = lockOf(one);
        HaspReadWriteLock other = lockOf(two);
        rw.writeLock().lock();
        rw.readLock().lock();           // allowed: the write holder may read
        rw.writeLock().unlock();        // downgrade: still reading

        assertTrue(rw.readLock().isHeldByCurrentThread());
        assertFalse(rw.writeLock().isLocked());
        assertTrue(get(other.readLock().tryLockAsync(other.readLock().owner(1))), "readers share after the downgrade");
        assertFalse(get(other.writeLock().tryLockAsync(other.writeLock().owner(2))), "a writer still waits");

        get(other.readLock().unlockAsync(other.readLock().owner(1)));
        rw.readLock().unlock();
        assertFalse(rw.isLocked());
    }

    @Test
    void upgradeFailsAtOnce() throws Exception {
        HaspReadWriteLock rw = lockOf(one);
        rw.readLock().lock();
        assertThrows(LockUpgradeException.class, () -> rw.writeLock().lock());
        assertThrows(LockUpgradeException.class, () -> rw.writeLock().tryLock(1, TimeUnit.HOURS));
        LockOwner owner = rw.readLock().currentOwner();
        CompletableFuture<Void> async = rw.writeLock().lockAsync(owner);
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> async.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
        assertInstanceOf(LockUpgradeException.class, failed.getCause());
        assertEquals(1, rw.readLock().getHoldCount(), "the read hold is untouched");
        rw.readLock().unlock();
        assertTrue(rw.writeLock().tryLock(), "without the read hold the write lock is free");
        rw.writeLock().unlock();
    }

    @Test
    void eachReadHoldHasItsOwnTimeoutKey() {
        HaspReadWriteLock a = lockOf(one);
        HaspReadWriteLock b = lockOf(two);
        LockOwner readerA = a.readLock().owner(1);
        LockOwner readerB = b.readLock().owner(1);
        assertTrue(get(a.readLock().tryLockAsync(0, 1, TimeUnit.SECONDS, readerA)));
        assertTrue(get(b.readLock().tryLockAsync(0, 10, TimeUnit.SECONDS, readerB)));
        String keyA = "{" + name + "}:" + readerA.field() + ":rwlock_timeout:1";
        String keyB = "{" + name + "}:" + readerB.field() + ":rwlock_timeout:1";
        assertTrue(pttl(one, keyA) > 0 && pttl(one, keyA) <= 1_000, "A's hold has its own 1 s key");
        assertTrue(pttl(one, keyB) > 1_000, "B's hold has its own 10 s key");
        assertTrue(pttl(one, name) > 1_000, "the hash lives as long as the longest hold");

        until(DEADLINE, "A's lease runs out", () -> !exists(one, keyA));
        assertTrue(a.readLock().isLocked(), "still read-held by B");
        LockOwner writer = a.writeLock().owner(2);
        assertFalse(get(a.writeLock().tryLockAsync(writer)), "a writer still waits");
        CompletableFuture<Void> writing = a.writeLock().lockAsync(writer);
        assertFalse(writing.isDone());

        get(b.readLock().unlockAsync(readerB));
        // B's key had ~9 s left: a writer that got in within a few seconds was woken by the unlock.
        long left = pttlOrZero(keyB);
        assertEquals(0, left, "B's key is deleted by its unlock");
        get(writing.orTimeout(5, TimeUnit.SECONDS));
        assertTrue(a.writeLock().isHeldBy(writer));
        get(a.writeLock().unlockAsync(writer));
    }

    private long pttlOrZero(String key) {
        long ttl = pttl(one, key);
        return ttl < 0 ? 0 : ttl;
    }

    @Test
    void readUnlockSetsTheHashToTheLongestRemainingHold() {
        HaspReadWriteLock a = lockOf(one);
        LockOwner longer = a.readLock().owner(1);
        LockOwner shorter = a.readLock().owner(2);
        assertTrue(get(a.readLock().tryLockAsync(0, 60, TimeUnit.SECONDS, longer)));
        assertTrue(get(a.readLock().tryLockAsync(0, 5, TimeUnit.SECONDS, shorter)));
        assertTrue(pttl(one, name) > 5_000);
        get(a.readLock().unlockAsync(longer));
        long ttl = pttl(one, name);
        assertTrue(ttl > 0 && ttl <= 5_000, "the hash now lives as long as the 5 s hold: " + ttl);
        get(a.readLock().unlockAsync(shorter));
        assertFalse(exists(one, name), "the last hold's unlock deletes the lock");
    }

    @Test
    void writeUnlockWakesAllWaitingReaders() {
        HaspReadWriteLock writerSide = lockOf(one);
        HaspReadWriteLock readerSide = lockOf(two);
        LockOwner writer = writerSide.writeLock().owner(1);
        assertTrue(get(writerSide.writeLock().tryLockAsync(writer)));   // watchdog: ~30 s TTL
        List<CompletableFuture<Void>> readers = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            readers.add(readerSide.readLock().lockAsync(readerSide.readLock().owner(i)));
        }
        for (CompletableFuture<Void> reader : readers) {
            assertFalse(reader.isDone());
        }
        get(writerSide.writeLock().unlockAsync(writer));
        // Without the wake-up the readers would look again only when the 30 s lease ran out.
        get(CompletableFuture.allOf(readers.toArray(new CompletableFuture<?>[0])).orTimeout(10, TimeUnit.SECONDS));
        for (int i = 1; i <= 4; i++) {
            assertTrue(readerSide.readLock().isHeldBy(readerSide.readLock().owner(i)));
            get(readerSide.readLock().unlockAsync(readerSide.readLock().owner(i)));
        }
    }

    @Test
    void lastReadUnlockWakesAWaitingWriter() {
        HaspReadWriteLock readerSide = lockOf(one);
        HaspReadWriteLock writerSide = lockOf(two);
        LockOwner r1 = readerSide.readLock().owner(1);
        LockOwner r2 = readerSide.readLock().owner(2);
        assertTrue(get(readerSide.readLock().tryLockAsync(r1)));
        assertTrue(get(readerSide.readLock().tryLockAsync(r2)));
        LockOwner writer = writerSide.writeLock().owner(1);
        CompletableFuture<Void> writing = writerSide.writeLock().lockAsync(writer);
        get(readerSide.readLock().unlockAsync(r1));
        assertFalse(writing.isDone(), "one reader is still in");
        get(readerSide.readLock().unlockAsync(r2));
        get(writing.orTimeout(10, TimeUnit.SECONDS));
        get(writerSide.writeLock().unlockAsync(writer));
    }

    @Test
    void watchdogRenewsHashAndOwnTimeoutKeysAndStopsAtUnlock() {
        try (HaspClient client = RwTesting.client(servers.uri(), Duration.ofSeconds(1))) {
            HaspReadWriteLocks locks = HaspReadWriteLocks.of(client);
            HaspReadWriteLock rw = locks.get(name);
            HaspReadWriteLock marker = locks.get(name + "-marker");
            LockOwner reader = rw.readLock().owner(1);
            LockOwner writer = marker.writeLock().owner(1);
            get(rw.readLock().lockAsync(reader));
            get(marker.writeLock().lockAsync(writer));
            // A reentrant lock of the same client: one renewal task serves both kinds.
            HaspLock plain = client.getLock(name + "-plain");
            get(plain.lockAsync(plain.owner(1)));
            String timeoutKey = "{" + name + "}:" + reader.field() + ":rwlock_timeout:1";

            long start = locks.renewalCalls();
            until(DEADLINE, "six renewal passes (two leases)", () -> locks.renewalCalls() >= start + 6);
            assertTrue(pttl(client, name) > 0, "hash renewed past its 1 s lease");
            assertTrue(pttl(client, timeoutKey) > 0, "the reader's own timeout key renewed too");
            assertTrue(pttl(client, marker.getName()) > 0, "the write hold renewed");
            assertTrue(pttl(client, plain.getName()) > 0, "the reentrant lock renewed by the same task");
            assertEquals(ClientInternals.lockService(client).renewalCalls(), locks.renewalCalls(), "one watchdog per client");

            get(rw.readLock().unlockAsync(reader));
            assertFalse(exists(client, name));
            assertEquals(1, locks.heldLocks(), "only the marker's hold is left to renew");
            long afterUnlock = locks.renewalCalls();
            until(DEADLINE, "three more renewal passes", () -> locks.renewalCalls() >= afterUnlock + 3);
            assertFalse(exists(client, name), "no renewal recreated the unlocked hash");
            assertFalse(exists(client, timeoutKey), "nor its timeout key");
            get(marker.writeLock().unlockAsync(writer));
            get(plain.unlockAsync(plain.owner(1)));
        }
    }

    @Test
    void everyKeyCarriesTheNameAsHashTag() {
        for (String lockName : List.of(name, "{app}:" + name)) {
            HaspReadWriteLock rw = HaspReadWriteLocks.of(one).get(lockName);
            HaspReadWriteLock other = HaspReadWriteLocks.of(two).get(lockName);
            rw.writeLock().lock();
            rw.readLock().lock();
            rw.writeLock().unlock();
            assertTrue(get(other.readLock().tryLockAsync(other.readLock().owner(7))));
            List<String> keys = keysBeside(lockName);
            int slot = RwTesting.slot(lockName);
            int lockKeys = 0;
            for (String key : keys) {
                if (key.contains(name) && !key.startsWith("redisson_unlock_latch")) {
                    lockKeys++;
                    assertEquals(slot, RwTesting.slot(key), "key " + key + " is in the lock's slot");
                }
            }
            assertEquals(3, lockKeys, "the hash and two timeout keys: " + keys);
            rw.readLock().unlock();
            get(other.readLock().unlockAsync(other.readLock().owner(7)));
            assertFalse(rw.isLocked());
        }
    }

    @Test
    void unlockByNonHolderFails() {
        HaspReadWriteLock rw = lockOf(one);
        assertThrows(IllegalMonitorStateException.class, () -> rw.readLock().unlock());
        assertThrows(IllegalMonitorStateException.class, () -> rw.writeLock().unlock());
        rw.writeLock().lock();
        ModeLock otherWrite = lockOf(two).writeLock();
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> otherWrite.unlockAsync(otherWrite.owner(1)).get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
        assertInstanceOf(IllegalMonitorStateException.class, e.getCause());
        assertThrows(IllegalMonitorStateException.class, () -> rw.readLock().unlock(), "a writer's read unlock");
        assertTrue(rw.writeLock().isHeldByCurrentThread(), "the lock is untouched");
        rw.writeLock().unlock();
    }

    @Test
    void badArgumentsFailBeforeAnythingIsSent() throws Exception {
        HaspReadWriteLocks locks = HaspReadWriteLocks.of(one);
        assertThrows(IllegalArgumentException.class, () -> locks.get(null));
        assertThrows(IllegalArgumentException.class, () -> locks.get(""));
        assertThrows(IllegalArgumentException.class, () -> HaspReadWriteLocks.of(null));
        ModeLock read = locks.get(name).readLock();
        ModeLock write = locks.get(name).writeLock();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> read.lock(-5, TimeUnit.SECONDS));
        assertTrue(e.getMessage().startsWith("leaseTime: -5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> write.lock(1, TimeUnit.NANOSECONDS));
        assertThrows(IllegalArgumentException.class, () -> write.tryLock(-1, TimeUnit.SECONDS));
        assertThrows(IllegalArgumentException.class, () -> read.tryLock(1, 1, null));
        assertThrows(IllegalArgumentException.class, () -> read.tryLockAsync(null));
        assertThrows(IllegalArgumentException.class, () -> write.unlockAsync(null));
        assertThrows(IllegalArgumentException.class, () -> read.lock(Duration.ZERO));
        assertFalse(exists(one, name), "nothing was sent");
    }

    @Test
    void forceUnlockAndQueries() {
        HaspReadWriteLock rw = lockOf(one);
        assertEquals(-2, rw.readLock().remainTimeToLive());
        rw.readLock().lock(30, TimeUnit.SECONDS);
        long ttl = rw.readLock().remainTimeToLive();
        assertTrue(ttl > 0 && ttl <= 30_000, "ttl " + ttl);
        assertFalse(lockOf(two).writeLock().forceUnlock(), "not in write mode");
        assertTrue(lockOf(two).readLock().forceUnlock());
        assertFalse(rw.isLocked());
        assertTrue(keysBeside(name).stream().noneMatch(k -> k.contains(name)), "timeout keys deleted too");

        rw.writeLock().lock();
        assertTrue(lockOf(two).writeLock().forceUnlock());
        assertFalse(rw.isLocked());
        assertThrows(IllegalMonitorStateException.class, () -> rw.writeLock().unlock());
    }

    @Test
    void blockingReaderWaitsAndWakes() throws Exception {
        HaspReadWriteLock rw = lockOf(one);
        rw.writeLock().lock();
        CompletableFuture<Boolean> reader = CompletableFuture.supplyAsync(() -> {
            ModeLock read = lockOf(two).readLock();
            try {
                if (!read.tryLock(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                    return false;
                }
                read.unlock();
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        assertFalse(reader.isDone());
        rw.writeLock().unlock();
        assertTrue(get(reader));
    }

    @Test
    void blockingCallOnAClientThreadFailsFast() {
        HaspReadWriteLock rw = lockOf(one);
        HaspReadWriteLock other = HaspReadWriteLocks.of(one).get(name + "-other");
        LockOwner owner = rw.readLock().owner(1);
        get(rw.readLock().lockAsync(owner));
        // the callback is attached before the reply exists (the list is pushed afterwards, by the other
        // client), so it runs on the client's event loop: a callback attached to a complete future would
        // run on this thread
        String list = name + "-signal";
        CompletableFuture<Throwable> inCallback = one.commands().execute(Replies.VOID, "BLPOP", list, "30").thenApply(v -> {
            try {
                other.writeLock().lock();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        get(two.commands().execute(Replies.VOID, "RPUSH", list, "go"));
        assertInstanceOf(IllegalStateException.class, get(inCallback));
        get(rw.readLock().unlockAsync(owner));
        until(DEADLINE, "the abandoned acquisition leaves nothing behind", () -> !other.isLocked());
    }

    @Test
    void lockDisappearsWhenItsLastHoldExpires() {
        HaspReadWriteLock a = lockOf(one);
        HaspReadWriteLock b = lockOf(two);
        assertTrue(get(a.readLock().tryLockAsync(0, 1, TimeUnit.SECONDS, a.readLock().owner(1))));
        assertTrue(get(b.readLock().tryLockAsync(0, 2, TimeUnit.SECONDS, b.readLock().owner(1))));
        until(DEADLINE, "both leases run out", () -> !a.isLocked());
        assertTrue(keysBeside(name).stream().noneMatch(k -> k.contains(name)), "no key of the lock is left");
        assertTrue(get(b.writeLock().tryLockAsync(b.writeLock().owner(2))), "a writer gets in");
        get(b.writeLock().unlockAsync(b.writeLock().owner(2)));
    }

    @Test
    void watchdogRenewsOnlyItsOwnersTimeoutKeys() {
        try (HaspClient client = RwTesting.client(servers.uri(), Duration.ofSeconds(1))) {
            HaspReadWriteLocks locks = HaspReadWriteLocks.of(client);
            HaspReadWriteLock watched = locks.get(name);
            HaspReadWriteLock leased = lockOf(two);
            LockOwner renewed = watched.readLock().owner(1);
            LockOwner expiring = leased.readLock().owner(1);
            get(watched.readLock().lockAsync(renewed));
            assertTrue(get(leased.readLock().tryLockAsync(0, 2, TimeUnit.SECONDS, expiring)));
            String renewedKey = "{" + name + "}:" + renewed.field() + ":rwlock_timeout:1";
            String expiringKey = "{" + name + "}:" + expiring.field() + ":rwlock_timeout:1";

            until(DEADLINE, "the 2 s hold runs out", () -> !exists(client, expiringKey));
            assertTrue(pttl(client, renewedKey) > 0, "the watchdog owner's key lives on");
            assertTrue(watched.readLock().isLocked());
            get(watched.readLock().unlockAsync(renewed));
            assertFalse(watched.isLocked(), "the expired hold does not keep the lock");
        }
    }

    @Test
    void interruptedWaiterGivesUpAndLeavesNothingBehind() throws Exception {
        HaspReadWriteLock rw = lockOf(one);
        LockOwner writer = rw.writeLock().owner(1);
        assertTrue(get(rw.writeLock().tryLockAsync(writer)));
        ModeLock read = lockOf(two).readLock();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                read.lockInterruptibly();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        }, "rw-interrupted-reader");
        waiter.start();
        until(DEADLINE, "the reader is waiting", () -> waiter.getState() == Thread.State.WAITING);
        waiter.interrupt();
        assertInstanceOf(InterruptedException.class, get(outcome));
        waiter.join(DEADLINE.toMillis());
        get(rw.writeLock().unlockAsync(writer));
        // A read acquire already on its way when the reader gave up may land after this unlock: it
        // must be given back. The writer gets in again only once no read hold is left.
        assertTrue(get(rw.writeLock().tryLockAsync(DEADLINE, writer)), "a read hold was left behind");
        get(rw.writeLock().unlockAsync(writer));
        until(DEADLINE, "the reader's client tracks no hold", () -> HaspReadWriteLocks.of(two).heldLocks() == 0);
        assertFalse(rw.isLocked());
    }
}
