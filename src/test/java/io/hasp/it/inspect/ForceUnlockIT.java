package io.hasp.it.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.inspect.LockInfo;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.rw.ForceUnlock;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ForceUnlock} on a real redis-server, one client freeing what another holds: a reentrant lock held twice, a
 * fenced lock (its token counter stays, so the next token is still the greatest), a fair lock with a queued waiter
 * (who gets it next), a read/write lock with two readers; a free name; a semaphore left alone.
 */
@ExtendWith(RedisServerExtension.class)
class ForceUnlockIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private static HaspClient operator;
    private static HaspClient holder;
    private static RedisProbe probe;

    @BeforeAll
    static void start(RedisServer server) {
        operator = HaspClient.create(server.uri());
        holder = HaspClient.create(HaspConfig.builder().uri(server.uri()).watchdogLease(Duration.ofSeconds(2)).build());
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        operator.close();
        holder.close();
        probe.close();
    }

    private static boolean force(String name) {
        return ForceUnlock.run(operator, operator.inspector().inspect(name));
    }

    @Test
    void aReentrantLockHeldTwiceIsFreedAndItsHolderLearnsItLost() throws Exception {
        HaspLock lock = holder.getLock("force:reentrant");
        lock.lock();
        lock.lock();
        assertTrue(force("force:reentrant"));
        assertEquals(0L, probe.call("EXISTS", "force:reentrant"));
        assertTrue(operator.getLock("force:reentrant").tryLock(), "free for another");
        operator.getLock("force:reentrant").unlock();
        assertFalse(force("force:reentrant"), "nothing to free the second time");
        HoldEnd end = lock.holdEnd().get(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertTrue(end == HoldEnd.LOST || end == HoldEnd.EXPIRED, "the holder learns it lost the lock: " + end);
    }

    @Test
    void aFencedLockKeepsItsTokenCounter() {
        FencedLock fenced = holder.getFencedLock("force:fenced");
        long before = fenced.lockAndGetToken();
        assertEquals(LockInfo.Kind.FENCED, operator.inspector().inspect("force:fenced").kind());
        assertTrue(force("force:fenced"));
        FencedLock next = operator.getFencedLock("force:fenced");
        long after = next.lockAndGetToken();
        assertTrue(after > before, "the next token " + after + " is greater than the forced holder's " + before);
        next.unlock();
    }

    @Test
    void aFairLocksQueuedWaiterGetsItNext() throws Exception {
        HaspLock fair = holder.getFairLock("force:fair");
        fair.lock();
        HaspLock waiting = operator.getFairLock("force:fair");
        CompletableFuture<Void> waiter = waiting.lockAsync(waiting.owner(77));
        assertTrue(Conditions.await(SLACK, () -> operator.inspector().inspect("force:fair").queue().size() == 1),
                "the waiter is queued");
        assertEquals(LockInfo.Kind.FAIR, operator.inspector().inspect("force:fair").kind());
        assertTrue(force("force:fair"));
        waiter.get(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertTrue(waiting.isHeldBy(waiting.owner(77)), "the queued waiter holds it");
        waiting.unlockAsync(waiting.owner(77)).get(SLACK.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aReadWriteLockWithTwoReadersIsFreed() {
        HaspReadWriteLock rw = HaspReadWriteLocks.get(holder, "force:rw");
        rw.readLock().lock();
        CompletableFuture<Void> second = rw.readLock().lockAsync(rw.readLock().owner(5));
        second.join();
        assertEquals(2, operator.inspector().inspect("force:rw").holders().size());
        assertTrue(force("force:rw"));
        assertEquals(0L, probe.call("EXISTS", "force:rw"));
        HaspReadWriteLock mine = HaspReadWriteLocks.get(operator, "force:rw");
        assertTrue(mine.writeLock().tryLock(), "a writer gets in");
        mine.writeLock().unlock();
    }

    @Test
    void aWriteHeldReadWriteLockIsFreedInWriteMode() {
        HaspReadWriteLock rw = HaspReadWriteLocks.get(holder, "force:rw-write");
        rw.writeLock().lock();
        assertTrue(force("force:rw-write"));
        assertEquals(0L, probe.call("EXISTS", "force:rw-write"));
        HaspReadWriteLock mine = HaspReadWriteLocks.get(operator, "force:rw-write");
        assertTrue(mine.readLock().tryLock(), "a reader gets in");
        mine.readLock().unlock();
    }

    @Test
    void aHashOfTheApplicationsOwnIsLeftAlone() {
        probe.call("HSET", "force:stats", "views", "10", "clicks", "3");   // numbers, as hold counts are
        assertEquals(LockInfo.Kind.REENTRANT, operator.inspector().inspect("force:stats").kind(), "it reads as a lock");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> force("force:stats"));
        assertTrue(refused.getMessage().contains("no lock owner"), refused.getMessage());
        assertEquals(1L, probe.call("EXISTS", "force:stats"));
        probe.call("DEL", "force:stats");
    }

    @Test
    void aFreeNameIsNotHeldAndASemaphoreIsLeftAlone() {
        assertFalse(force("force:nobody"));
        HaspSemaphore permits = holder.getSemaphore("force:permits");
        permits.trySetPermits(2);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> force("force:permits"));
        assertTrue(refused.getMessage().contains("not a lock"), refused.getMessage());
        assertEquals(2, permits.availablePermits());
    }
}
