package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fair kind's scripts against a real server, one call at a time: the line and its order, re-sent requests,
 * giving a place back, waiters that stopped (hasp's place lease, Redisson's deadline), the keys' expiry, and the
 * wake-ups only the head of the line receives.
 */
@ExtendWith(RedisServerExtension.class)
class FairKindTest {

    private static final long LEASE = 30_000;
    private static final FairKind KIND = new FairKind(LEASE);

    private static HaspClient client;
    private static Topology topology;
    private static RedisProbe probe;
    private static int port;

    private String name;
    private final LockOwner holder = LockOwner.of("c1", 1);
    private final LockOwner first = LockOwner.of("c2", 1);
    private final LockOwner second = LockOwner.of("c3", 7);

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        topology = ClientInternals.topology(client);
        probe = RedisProbe.connect(server.port());
        port = server.port();
    }

    @AfterAll
    static void stop() {
        client.close();
        probe.close();
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "fair:" + test.getTestMethod().orElseThrow().getName();
    }

    private AcquireOutcome acquire(FairKind kind, LockOwner owner, int target) {
        return kind.acquire(topology, name, owner, LEASE, target).join();
    }

    private AcquireOutcome acquire(LockOwner owner) {
        return acquire(KIND, owner, 1);
    }

    private List<?> line() {
        return (List<?>) probe.call("LRANGE", LockKeys.fairQueue(name), "0", "-1");
    }

    private long serverMillis() {
        List<?> time = (List<?>) probe.call("TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }

    @Test
    void theKeysAreRedissonsFairLockKeysInTheLocksSlot() {
        assertEquals("redisson_lock_queue:{orders}", LockKeys.fairQueue("orders"));
        assertEquals("redisson_lock_timeout:{orders}", LockKeys.fairDeadlines("orders"));
        assertEquals("hasp_lock_places:{orders}", LockKeys.fairPlaces("orders"));
        assertEquals("redisson_lock__channel:{orders}:c2:1", KIND.waitChannel("orders", first));
        assertEquals("redisson_lock_queue:{a}b", LockKeys.fairQueue("{a}b"));
    }

    @Test
    void aSecondSendOfAnUnlockAnswersWhatTheFirstDidAndNeverFreesALaterHold() {
        String latch = "latch:" + name;
        assertTrue(acquire(holder).acquired());
        assertTrue(acquire(KIND, holder, 2).acquired());
        assertEquals(ReleaseOutcome.STILL_HELD, KIND.release(topology, name, holder, latch, LEASE, 60_000).join());
        assertEquals(ReleaseOutcome.STILL_HELD, KIND.release(topology, name, holder, latch, LEASE, 60_000).join(),
                "the outcome of the send that ran, from its latch");
        assertEquals("1", probe.call("HGET", name, holder.field()), "one hold given back, not two");

        String last = "latch:last:" + name;
        assertEquals(ReleaseOutcome.FREED, KIND.release(topology, name, holder, last, LEASE, 60_000).join());
        assertTrue(acquire(holder).acquired());
        assertEquals(ReleaseOutcome.FREED, KIND.release(topology, name, holder, last, LEASE, 60_000).join());
        assertEquals("1", probe.call("HGET", name, holder.field()), "the later hold stays");
    }

    @Test
    void waitersStandInLineAndTheLockGoesToTheHeadOnly() {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        assertFalse(acquire(second).acquired());
        assertEquals(List.of(first.field(), second.field()), line());

        assertEquals(ReleaseOutcome.FREED,
                KIND.release(topology, name, holder, "latch:" + name, LEASE, 60_000).join());
        assertFalse(acquire(second).acquired(), "the second in line waits for the first, though the lock is free");
        LockOwner latecomer = LockOwner.of("c4", 1);
        assertFalse(KIND.acquireWithoutWaiting(topology, name, latecomer, LEASE, 1).join().acquired(),
                "a single try does not pass the line either");
        assertEquals(List.of(first.field(), second.field()), line(), "and takes no place in it");
        assertTrue(acquire(first).acquired());
        assertEquals(List.of(second.field()), line());
        assertEquals("1", probe.call("HGET", name, first.field()));
    }

    @Test
    void aRequestSentAgainKeepsItsPlaceAndIsNotEnqueuedTwice() {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        assertFalse(acquire(second).acquired());
        assertFalse(acquire(first).acquired());
        assertFalse(acquire(first).acquired());
        assertEquals(List.of(first.field(), second.field()), line());
        assertEquals(2L, probe.call("ZCARD", LockKeys.fairDeadlines(name)));
        assertEquals(2L, probe.call("ZCARD", LockKeys.fairPlaces(name)));
        assertTrue(acquire(holder).acquired(), "a re-sent grant of the holder adds nothing");
        assertEquals("1", probe.call("HGET", name, holder.field()));
    }

    @Test
    void aWaiterThatGivesUpLeavesTheLineAndTheNextHeadIsWokenWhenTheLockIsFree() throws Exception {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        assertFalse(acquire(second).acquired());
        KIND.release(topology, name, holder, "latch:" + name, LEASE, 60_000).join();

        try (RedisProbe listener = RedisProbe.connect(port)) {
            listener.call("SUBSCRIBE", KIND.waitChannel(name, second));
            assertTrue(KIND.rollback(topology, name, first, 1, LEASE).join(), "the first gave its place back");
            assertEquals(List.of("message", KIND.waitChannel(name, second), "0"), listener.read());
        }
        assertEquals(List.of(second.field()), line());
        assertTrue(acquire(second).acquired());
        assertFalse(KIND.rollback(topology, name, first, 1, LEASE).join(), "nothing left to give back");
        assertEquals(0L, probe.call("EXISTS", LockKeys.fairQueue(name), LockKeys.fairDeadlines(name),
                LockKeys.fairPlaces(name)), "an empty line leaves no keys");
    }

    @Test
    void aSingleTryTakesTheFreeLockOfAnEmptyLineAndElseNoPlace() {
        assertTrue(KIND.acquireWithoutWaiting(topology, name, holder, LEASE, 1).join().acquired());
        assertFalse(KIND.acquireWithoutWaiting(topology, name, first, LEASE, 1).join().acquired());
        assertEquals(List.of(), line());
        assertEquals(0L, probe.call("EXISTS", LockKeys.fairQueue(name), LockKeys.fairDeadlines(name),
                LockKeys.fairPlaces(name)));
    }

    @Test
    void aRollbackWithTargetZeroGivesBackThePlaceAndNeverAGrant() {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        assertTrue(KIND.rollback(topology, name, first, 0, LEASE).join(), "its place given back");
        assertFalse(KIND.rollback(topology, name, holder, 0, LEASE).join(), "the holder's grant is not undone");
        assertEquals("1", probe.call("HGET", name, holder.field()));
        assertEquals(List.of(), line());
    }

    @Test
    void aRollbackUndoesAGrantWhoseReplyWasLostAndWakesTheHead() throws Exception {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        try (RedisProbe listener = RedisProbe.connect(port)) {
            listener.call("SUBSCRIBE", KIND.waitChannel(name, first));
            assertTrue(KIND.rollback(topology, name, holder, 1, LEASE).join());
            assertEquals(List.of("message", KIND.waitChannel(name, first), "0"), listener.read());
        }
        assertEquals(0L, probe.call("EXISTS", name));
        assertTrue(acquire(first).acquired());
    }

    @Test
    void theUnlockWakesOnlyTheHeadOnItsOwnChannel() throws Exception {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        assertFalse(acquire(second).acquired());
        try (RedisProbe listener = RedisProbe.connect(port)) {
            listener.call("PSUBSCRIBE", LockKeys.channel(name) + "*");
            KIND.release(topology, name, holder, "latch:" + name, LEASE, 60_000).join();
            List<?> message = (List<?>) listener.read();
            assertEquals(List.of("pmessage", LockKeys.channel(name) + "*", KIND.waitChannel(name, first), "0"), message);
            probe.call("PUBLISH", LockKeys.channel(name) + ":end", "x");
            assertEquals(LockKeys.channel(name) + ":end", ((List<?>) listener.read()).get(2), "no other message came");
        }
    }

    @Test
    void aHaspWaiterThatStoppedRenewingItsPlaceIsDroppedWhereverItStands() {
        FairKind shortPlaces = new FairKind(1_000);
        assertTrue(acquire(shortPlaces, holder, 1).acquired());
        assertFalse(acquire(shortPlaces, first, 1).acquired());
        assertFalse(acquire(shortPlaces, second, 1).acquired());
        long stopped = serverMillis();
        while (serverMillis() < stopped + 600) {
            assertFalse(acquire(shortPlaces, second, 1).acquired(), "the second keeps renewing its place");
        }
        assertEquals(2, line().size(), "both still in line within the first's place lease");
        while (serverMillis() < stopped + 1_050) {
            Thread.onSpinWait();
        }
        assertFalse(acquire(shortPlaces, second, 1).acquired());
        assertEquals(List.of(second.field()), line(), "the first stopped looking: its place lapsed");
    }

    @Test
    void aWaiterWithoutAPlaceLeavesByRedissonsDeadlineOnceAtTheHead() {
        assertTrue(acquire(holder).acquired());
        long now = serverMillis();
        String ghost = "redisson-client:9";
        probe.call("RPUSH", LockKeys.fairQueue(name), ghost);
        probe.call("ZADD", LockKeys.fairDeadlines(name), String.valueOf(now - 1), ghost);
        String patient = "redisson-client:10";
        probe.call("RPUSH", LockKeys.fairQueue(name), patient);
        probe.call("ZADD", LockKeys.fairDeadlines(name), String.valueOf(now + 600_000), patient);
        assertFalse(acquire(first).acquired());
        assertEquals(List.of(patient, first.field()), line(), "past its deadline at the head: dropped");
    }

    @Test
    void theLineAndItsDeadlinesFollowRedissonsRules() {
        assertTrue(acquire(holder).acquired());
        long before = serverMillis();
        assertFalse(acquire(first).acquired());
        assertFalse(acquire(second).acquired());
        double firstDeadline = Double.parseDouble((String) probe.call("ZSCORE", LockKeys.fairDeadlines(name), first.field()));
        double secondDeadline = Double.parseDouble((String) probe.call("ZSCORE", LockKeys.fairDeadlines(name), second.field()));
        long step = FairKind.REDISSON_DEADLINE_STEP_MILLIS;
        assertTrue(firstDeadline >= before + LEASE - 1_000 + step, "the holder's time left plus one step: " + firstDeadline);
        assertEquals(firstDeadline + step, secondDeadline, 1.0, "the previous waiter's deadline plus one step");

        KIND.release(topology, name, holder, "latch:" + name, LEASE, 60_000).join();
        assertTrue(acquire(first).acquired());
        double after = Double.parseDouble((String) probe.call("ZSCORE", LockKeys.fairDeadlines(name), second.field()));
        assertEquals(secondDeadline - step, after, 1.0, "a grant takes one step off every deadline left");
    }

    @Test
    void theQueueKeysExpireWhenNobodyUsesThem() {
        FairKind shortPlaces = new FairKind(200);
        assertTrue(acquire(shortPlaces, holder, 1).acquired());
        assertFalse(acquire(shortPlaces, first, 1).acquired());
        for (String key : List.of(LockKeys.fairQueue(name), LockKeys.fairDeadlines(name), LockKeys.fairPlaces(name))) {
            long ttl = (Long) probe.call("PTTL", key);
            assertTrue(ttl > 0 && ttl <= 2 * 200 + FairKind.REDISSON_DEADLINE_STEP_MILLIS + LEASE + 200,
                    key + " expires: " + ttl);
        }
    }

    @Test
    void aReentryOfALostHoldIsRefusedAndTheOwnerIsNotEnqueued() {
        assertTrue(acquire(holder).acquired());
        probe.call("DEL", name);
        assertTrue(acquire(first).acquired());
        assertTrue(acquire(KIND, holder, 2).lost());
        assertEquals(List.of(), line());
    }

    @Test
    void aForcedUnlockWakesTheHead() throws Exception {
        assertTrue(acquire(holder).acquired());
        assertFalse(acquire(first).acquired());
        try (RedisProbe listener = RedisProbe.connect(port)) {
            listener.call("SUBSCRIBE", KIND.waitChannel(name, first));
            assertTrue(KIND.forceRelease(topology, name).join());
            assertEquals(List.of("message", KIND.waitChannel(name, first), "0"), listener.read());
        }
        assertFalse(KIND.forceRelease(topology, name).join());
    }
}
