package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An unlock whose hold had ended before it ({@link HoldLostException}, with how it ended) is told
 * apart from an unlock by an owner that never held the lock (a plain
 * {@link IllegalMonitorStateException}); both keep {@code Lock}'s contract. A re-entry of a hold that
 * ended unnoticed fails the same way and takes nothing: a fresh grant of one hold would let the inner
 * unlock free the lock while the outer code still believes it holds it.
 */
@ExtendWith(RedisServerExtension.class)
class LostHoldUnlockIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private static HaspClient client;
    private static HaspClient shortWatchdog;
    private static RedisProbe probe;

    private String name;

    @BeforeAll
    static void start(RedisServer server) {
        client = Clients.hasp(server.uri(), seconds(30));
        shortWatchdog = Clients.hasp(server.uri(), Duration.ofMillis(1_500));
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        client.close();
        shortWatchdog.close();
        probe.close();
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "lost:" + test.getTestMethod().orElseThrow().getName();
    }

    @Test
    void anOwnerThatNeverHeldTheLockGetsThePlainException() throws Exception {
        HaspLock lock = client.getLock(name);
        IllegalMonitorStateException nobody = assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertEquals(IllegalMonitorStateException.class, nobody.getClass(), nobody.getMessage());

        LockOwner holder = lock.owner(1);
        lock.lockAsync(holder).get(10, TimeUnit.SECONDS);
        ExecutionException other = assertThrows(ExecutionException.class, () -> lock.unlockAsync(lock.owner(2)).get());
        assertEquals(IllegalMonitorStateException.class, other.getCause().getClass(), other.getCause().getMessage());
        assertTrue(lock.isHeldBy(holder), "the holder's hold is untouched");

        lock.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        ExecutionException twice = assertThrows(ExecutionException.class, () -> lock.unlockAsync(holder).get());
        assertEquals(IllegalMonitorStateException.class, twice.getCause().getClass(), "a released hold is not a lost one");
    }

    @Test
    void aHoldWhoseKeyWasDeletedIsReportedLostByTheUnlock() {
        HaspLock lock = client.getLock(name);
        lock.lock();
        probe.call("DEL", name);
        HoldLostException lost = assertThrows(HoldLostException.class, lock::unlock);
        assertEquals(HoldEnd.LOST, lost.holdEnd());
        assertTrue(lost.getMessage().contains("ended before this unlock (LOST: it was no longer in Redis"), lost.getMessage());
    }

    @Test
    void aHoldTheWatchdogFoundGoneIsReportedLostByTheUnlock() throws Exception {
        HaspLock lock = shortWatchdog.getLock(name);
        lock.lock();
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        probe.call("DEL", name);
        assertEquals(HoldEnd.LOST, end.get(10, TimeUnit.SECONDS));
        HoldLostException lost = assertThrows(HoldLostException.class, lock::unlock);
        assertEquals(HoldEnd.LOST, lost.holdEnd());
        assertTrue(lost.getMessage().contains("the watchdog found it gone"), lost.getMessage());
        assertEquals(IllegalMonitorStateException.class,
                assertThrows(IllegalMonitorStateException.class, lock::unlock).getClass(), "reported once");
    }

    @Test
    void aLeaseThatRanOutIsReportedExpiredByTheUnlock() throws Exception {
        HaspLock lock = client.getLock(name);
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofMillis(300)));
        await("the lease ran out in Redis", SLACK, () -> !lock.isLocked());
        HoldLostException lost = assertThrows(HoldLostException.class, lock::unlock);
        assertEquals(HoldEnd.EXPIRED, lost.holdEnd());
        assertTrue(lost.getMessage().contains("EXPIRED: its lease"), lost.getMessage());
    }

    @Test
    void aLostReadHoldIsReportedToo() throws Exception {
        HaspReadWriteLock rw = HaspReadWriteLocks.get(client, name);
        rw.readLock().lock();
        probe.call("DEL", name);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> rw.readLock().unlockAsync(rw.readLock().currentOwner()).get(10, TimeUnit.SECONDS));
        HoldLostException lost = assertInstanceOf(HoldLostException.class, e.getCause());
        assertEquals(HoldEnd.LOST, lost.holdEnd());
        assertFalse(rw.isLocked());
    }

    @Test
    void aReentryOfAHoldWhoseKeyWasDeletedFailsAndTakesNothing() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        probe.call("DEL", name);

        HoldLostException lost = assertThrows(HoldLostException.class, lock::lock);
        assertEquals(HoldEnd.LOST, lost.holdEnd());
        assertTrue(lost.getMessage().contains("this re-entry would add to had ended (LOST"), lost.getMessage());
        assertEquals(HoldEnd.LOST, end.get(10, TimeUnit.SECONDS));
        assertFalse(lock.isLocked(), "the failed re-entry granted nothing");
        assertFalse(lock.isHeldByCurrentThread());

        HoldLostException outer = assertThrows(HoldLostException.class, lock::unlock, "the outer unlock hears it too");
        assertEquals(HoldEnd.LOST, outer.holdEnd());
        lock.lock();
        assertEquals("1", probe.call("HGET", name, lock.currentOwner().field()), "a new hold starts at one");
        lock.unlock();
        assertFalse(lock.isLocked());
    }

    @Test
    void aReentryOfAHoldAnotherClientTookOverFailsAtOnceAndLeavesItsHolder() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        probe.call("DEL", name);
        HaspLock theirs = shortWatchdog.getLock(name);
        LockOwner other = theirs.owner(7);
        theirs.lockAsync(other).get(10, TimeUnit.SECONDS);

        assertThrows(HoldLostException.class, () -> lock.tryLock(Duration.ofSeconds(30), Duration.ofSeconds(30)),
                "no wait for a lock the owner believes it holds");
        assertTrue(theirs.isHeldBy(other), "the new holder keeps the lock");
        assertEquals(1L, probe.call("HLEN", name));
        theirs.unlockAsync(other).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aReentryOfALeaseThatRanOutFailsAsExpired() throws Exception {
        HaspLock lock = client.getLock(name);
        assertTrue(lock.tryLock(Duration.ofSeconds(5), Duration.ofMillis(300)));
        await("the lease ran out in Redis", SLACK, () -> !lock.isLocked());
        HoldLostException lost = assertThrows(HoldLostException.class, lock::lock);
        assertEquals(HoldEnd.EXPIRED, lost.holdEnd());
        assertFalse(lock.isLocked());
    }

    @Test
    void aFencedReentryOfALostHoldFailsWithoutAToken() throws Exception {
        FencedLock lock = client.getFencedLock(name);
        long first = lock.lockAndGetToken();
        probe.call("DEL", name);
        Object before = probe.call("GET", "redisson_lock_token:{" + name + "}");
        assertThrows(HoldLostException.class, lock::lockAndGetToken);
        assertEquals(String.valueOf(first), before);
        assertEquals(before, probe.call("GET", "redisson_lock_token:{" + name + "}"), "no token issued");
        assertFalse(lock.isLocked());
    }

    @Test
    void readAndWriteReentriesOfLostHoldsFail() throws Exception {
        HaspReadWriteLock rw = HaspReadWriteLocks.get(client, name);
        rw.readLock().lock();
        probe.call("DEL", name);
        HoldLostException read = assertThrows(HoldLostException.class, () -> rw.readLock().lock());
        assertEquals(HoldEnd.LOST, read.holdEnd());
        assertFalse(rw.isLocked());

        rw.writeLock().lock();
        probe.call("DEL", name);
        HoldLostException write = assertThrows(HoldLostException.class, () -> rw.writeLock().lock());
        assertEquals(HoldEnd.LOST, write.holdEnd());
        assertFalse(rw.isLocked());
    }
}
