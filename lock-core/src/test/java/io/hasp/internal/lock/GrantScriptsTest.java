package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Grants in the reentrant lock's line, script by script against a real server: a waiter that stands in line for its
 * process's turn names itself the process's heir; a release that frees the lock while nobody listens on the shared
 * channel gives the lock to the next process's heir and tells only that process; a grant nobody hears is undone; the
 * heir's own acquire consumes the grant, and a decline (the process found nobody parked to take it) gives the lock
 * back only while the grant is unconsumed.
 */
@ExtendWith(RedisServerExtension.class)
class GrantScriptsTest {

    private static final long LEASE = 30_000;
    private static final long LATCH = 60_000;
    private static final String RELEASING = "process-a";
    private static final String HEIR_PROCESS = "process-b";

    private static HaspClient client;
    private static Topology topology;
    private static RedisProbe probe;
    private static int port;

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        topology = ClientInternals.topology(client);
        port = server.port();
        probe = RedisProbe.connect(port);
    }

    @AfterAll
    static void stop() {
        client.close();
        probe.close();
    }

    private static String name(TestInfo test) {
        return "grant:" + test.getTestMethod().orElseThrow().getName();
    }

    private static AcquireOutcome acquireInLine(String name, LockOwner owner, String process, long stamp) {
        return ReentrantKind.INSTANCE.acquireInLine(topology, name, owner, LEASE, 1, process, true, stamp).join();
    }

    /** A release by {@code owner} of {@code process}, which keeps a place ({@code stays}) naming it heir with stamp. */
    private static ReleaseOutcome release(String name, LockOwner owner, String process, int stays, long stamp) {
        return ReentrantKind.INSTANCE.releaseInLine(topology, name, owner, name + ":latch:" + owner.field(), LEASE,
                LATCH, process, stays, false, null, 0, stamp).join();
    }

    private static ReleaseOutcome release(String name, LockOwner owner, String process) {
        return release(name, owner, process, 0, 0);
    }

    private static Object heirOf(String name, String process) {
        Object heir = probe.call("GET", "hasp_lock_line_place:{" + name + "}:" + process);
        return "".equals(heir) || "-".equals(heir) ? null : heir;   // a place that names no heir, or one used up
    }

    private static long decline(String name, Grant grant, LockOwner successor) {
        return ReentrantKind.INSTANCE.declineGrant(topology, name, HEIR_PROCESS, grant, successor, 10_000).join();
    }

    /** A connection subscribed to {@code channel}, as a waiting process's subscription is. */
    private static RedisProbe subscribed(String channel) {
        RedisProbe listener = RedisProbe.connect("127.0.0.1", port, Duration.ofSeconds(5));
        listener.call("SUBSCRIBE", channel);
        return listener;
    }

    /** The lock held by a holder of the releasing process, a waiter of the heir's process in line behind it. */
    private static LockOwner[] heldWithAnHeirInLine(String name) {
        LockOwner holder = LockOwner.of(client.id(), 1);
        LockOwner waiter = LockOwner.of(client.id(), 2);
        assertTrue(acquireInLine(name, holder, RELEASING, 1).acquired());
        AcquireOutcome busy = acquireInLine(name, waiter, HEIR_PROCESS, 7);
        assertFalse(busy.acquired());
        assertTrue(busy.inLine(), "its process waits for its turn");
        return new LockOwner[] {holder, waiter};
    }

    /**
     * A process whose place ran out while its entry still stood in the line, and that waits again, keeps that one
     * entry: a second one would serve it twice a round for as long as it kept coming back.
     */
    @Test
    void aProcessWhosePlaceRanOutStandsInTheLineOnce(TestInfo test) {
        String name = name(test);
        LockOwner waiter = heldWithAnHeirInLine(name)[1];
        probe.call("DEL", "hasp_lock_line_place:{" + name + "}:" + HEIR_PROCESS);   // its lease ran out
        assertFalse(acquireInLine(name, waiter, HEIR_PROCESS, 8).acquired());
        assertEquals(List.of(HEIR_PROCESS), probe.call("LRANGE", "hasp_lock_line:{" + name + "}", "0", "-1"));
        assertEquals("8:" + LEASE + ":" + waiter.field(), heirOf(name, HEIR_PROCESS));
    }

    /** A process whose turn came and that waits again stands at the end of the line, once. */
    @Test
    void aProcessServedStandsAgainAtTheEnd(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        LockOwner third = LockOwner.of(client.id(), 3);
        assertFalse(acquireInLine(name, third, "process-c", 9).acquired());
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            assertEquals(ReleaseOutcome.FREED_TURN_ELSEWHERE, release(name, owners[0], RELEASING));
        }
        assertEquals(List.of("process-c"), probe.call("LRANGE", "hasp_lock_line:{" + name + "}", "0", "-1"));
        assertNull(heirOf(name, HEIR_PROCESS), "its place was used up");
        LockOwner again = LockOwner.of(client.id(), 4);
        assertFalse(acquireInLine(name, again, HEIR_PROCESS, 10).acquired());
        assertEquals(List.of("process-c", HEIR_PROCESS),
                probe.call("LRANGE", "hasp_lock_line:{" + name + "}", "0", "-1"));
    }

    @Test
    void aWaiterInLineNamesItselfItsProcesssHeir(TestInfo test) {
        String name = name(test);
        LockOwner waiter = heldWithAnHeirInLine(name)[1];
        assertEquals("7:" + LEASE + ":" + waiter.field(), heirOf(name, HEIR_PROCESS));
    }

    @Test
    void aReleaseGrantsTheLockToTheNextProcesssHeirAndTellsOnlyThatProcess(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            assertEquals(ReleaseOutcome.FREED_TURN_ELSEWHERE, release(name, owners[0], RELEASING));
            assertEquals(List.of(owners[1].field(), "1"), probe.call("HGETALL", name), "held by the heir, once");
            long ttl = (Long) probe.call("PTTL", name);
            assertTrue(ttl > LEASE - 5_000 && ttl <= LEASE, "the heir's lease: " + ttl);
            assertEquals(List.of("message", LockKeys.turnChannel(name, HEIR_PROCESS),
                    "g7:" + LEASE + ":" + owners[1].field()), heirProcess.read());
            assertEquals(HEIR_PROCESS + " 7:" + LEASE + ":" + owners[1].field(),
                    probe.call("GET", "hasp_lock_grant:{" + name + "}"));
            assertNull(heirOf(name, HEIR_PROCESS), "the heir was used");
            assertNull(probe.call("GET", "hasp_lock_turn:{" + name + "}"), "no turn kept: the lock is held");
        }
        Grant grant = new Grant(7, LEASE, owners[1].field());
        assertEquals(0L, decline(name, new Grant(8, LEASE, owners[1].field()), null),
                "a decline of another naming of the same owner changes nothing");
        assertEquals(List.of(owners[1].field(), "1"), probe.call("HGETALL", name));
        assertEquals(1L, decline(name, grant, null), "a decline of the grant gives the lock back");
        assertEquals(0L, probe.call("EXISTS", name, "hasp_lock_grant:{" + name + "}"), "free, the grant gone");
    }

    @Test
    void aGrantNobodyHearsIsUndoneAndTheLockFreed(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        // Nobody listens on the heir process's channel: it closed its client, or died.
        assertEquals(ReleaseOutcome.FREED, release(name, owners[0], RELEASING));
        assertEquals(0L, probe.call("EXISTS", name, "hasp_lock_grant:{" + name + "}"));
        assertNull(heirOf(name, HEIR_PROCESS));
    }

    @Test
    void aReleaseThatKeepsItsProcessAPlaceNamesItsOwnerHeirForItsNextTurn(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS));
                RedisProbe releasingProcess = subscribed(LockKeys.turnChannel(name, RELEASING))) {
            // Its acquisitions come back: the release keeps the process a place behind the heir's process.
            assertEquals(ReleaseOutcome.FREED_TURN_ELSEWHERE, release(name, owners[0], RELEASING, 1, 21));
            heirProcess.read();
            assertEquals("21:" + LEASE + ":" + owners[0].field(), heirOf(name, RELEASING));
            // The heir's release grants the lock back to the owner the releasing process named.
            assertEquals(ReleaseOutcome.FREED_TURN_ELSEWHERE, release(name, owners[1], HEIR_PROCESS));
            assertEquals(List.of("message", LockKeys.turnChannel(name, RELEASING), "g21:" + LEASE + ":"
                    + owners[0].field()), releasingProcess.read());
            assertEquals(List.of(owners[0].field(), "1"), probe.call("HGETALL", name));
        }
    }

    @Test
    void theHeirsOwnAcquireConsumesTheGrantSoThatALateDeclineChangesNothing(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            release(name, owners[0], RELEASING);
            heirProcess.read();
        }
        // The waiter was between two tries when the grant came: its next acquire finds the lock its own.
        assertTrue(acquireInLine(name, owners[1], HEIR_PROCESS, 7).acquired());
        assertEquals(0L, probe.call("EXISTS", "hasp_lock_grant:{" + name + "}"), "consumed");
        assertEquals(0L, decline(name, new Grant(7, LEASE, owners[1].field()), null));
        assertEquals(List.of(owners[1].field(), "1"), probe.call("HGETALL", name), "the hold it reported stays");
    }

    @Test
    void noGrantWhileAClientThatTakesNoTurnsListensOnTheSharedChannel(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe other = subscribed(LockKeys.channel(name));
                RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            assertEquals(ReleaseOutcome.FREED_FOR_ALL, release(name, owners[0], RELEASING));
            assertEquals(0L, probe.call("EXISTS", name), "freed for everyone");
            assertEquals(List.of("message", LockKeys.turnChannel(name, HEIR_PROCESS), "0"), heirProcess.read(),
                    "a plain turn");
            assertEquals(HEIR_PROCESS, probe.call("GET", "hasp_lock_turn:{" + name + "}"));
        }
    }

    @Test
    void aGrantMessageIsReadBackAsSent() {
        assertEquals(new Grant(12, 30_000, "8a0c6c39-55d4-8f3e-9a51-3b1c1d9e2f40:7"),
                Grant.parse("g12:30000:8a0c6c39-55d4-8f3e-9a51-3b1c1d9e2f40:7"));
        assertNull(Grant.parse("0"));
        assertNull(Grant.parse("g12:30000:"));
        assertNull(Grant.parse("gx:30000:owner"));
        assertNull(Grant.parse("g12"));
    }

    @Test
    void aDeclinedGrantGoesToAnotherWaiterOfTheProcessWhenItNamesOne(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            release(name, owners[0], RELEASING);
            heirProcess.read();
        }
        LockOwner other = LockOwner.of(client.id(), 3);
        assertEquals(2L, decline(name, new Grant(7, LEASE, owners[1].field()), other));
        assertEquals(List.of(other.field(), "1"), probe.call("HGETALL", name), "held by the other waiter, once");
        long ttl = (Long) probe.call("PTTL", name);
        assertTrue(ttl > 5_000 && ttl <= 10_000, "its own lease: " + ttl);
        assertEquals(0L, probe.call("EXISTS", "hasp_lock_grant:{" + name + "}"));
    }

    @Test
    void aProcessThatClosesDeclinesAGrantItNeverTookAndNamesNoHeirAnyMore(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            release(name, owners[0], RELEASING);
            heirProcess.read();   // the grant came as its client closed: nobody took it
        }
        assertTrue(LeaveLineScript.run(topology, name, HEIR_PROCESS, List.of()).join());
        assertEquals(0L, probe.call("EXISTS", name, "hasp_lock_grant:{" + name + "}"), "freed");
    }

    @Test
    void aProcessThatClosesKeepsNoLineButLeavesAGrantItTookToItsLease(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            release(name, owners[0], RELEASING);
            heirProcess.read();
        }
        assertFalse(LeaveLineScript.run(topology, name, HEIR_PROCESS, List.of(owners[1].field())).join(),
                "its owner holds the lock by its own count: the hold is the owner's");
        assertEquals(List.of(owners[1].field(), "1"), probe.call("HGETALL", name));
        LockOwner another = LockOwner.of(client.id(), 5);
        assertFalse(acquireInLine(name, another, HEIR_PROCESS, 9).acquired());
        assertFalse(LeaveLineScript.run(topology, name, RELEASING, List.of()).join(), "another process's grant stays");
        assertFalse(LeaveLineScript.run(topology, name, HEIR_PROCESS, List.of(owners[1].field())).join());
        assertNull(heirOf(name, HEIR_PROCESS), "it names no heir any more");
    }

    @Test
    void aFencedAcquireOfTheGrantedOwnerTakesTheGrantWithATokenOfItsOwn(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        probe.call("SET", LockKeys.tokenCounter(name), "41");
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            release(name, owners[0], RELEASING);
            heirProcess.read();
        }
        AcquireOutcome taken = FencedKind.INSTANCE.acquireInLine(topology, name, owners[1], LEASE, 1, HEIR_PROCESS,
                true).join();
        assertTrue(taken.acquired());
        assertEquals(42L, taken.token(), "a token of its own, above every one before");
        assertEquals(0L, probe.call("EXISTS", "hasp_lock_grant:{" + name + "}"), "consumed");
        assertEquals(0L, decline(name, new Grant(7, LEASE, owners[1].field()), null), "a late decline frees nothing");
        assertEquals(List.of(owners[1].field(), "1"), probe.call("HGETALL", name));
    }

    @Test
    void aWaitChannelMadeByTheFencedLockDeclinesAGrantAsThePlainLockDoes(TestInfo test) {
        String name = name(test);
        LockOwner[] owners = heldWithAnHeirInLine(name);
        try (RedisProbe heirProcess = subscribed(LockKeys.turnChannel(name, HEIR_PROCESS))) {
            release(name, owners[0], RELEASING);
            heirProcess.read();
        }
        assertEquals(1L, FencedKind.INSTANCE.declineGrant(topology, name, HEIR_PROCESS,
                new Grant(7, LEASE, owners[1].field()), null, 0).join());
        assertEquals(0L, probe.call("EXISTS", name));
    }
}
