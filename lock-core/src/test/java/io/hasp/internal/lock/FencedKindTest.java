package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.internal.ClientInternals;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fenced kind's acquire script against a real server: one token per acquisition, re-entries
 * included, none for a re-sent request or a refused one, the counter under Redisson's key.
 */
@ExtendWith(RedisServerExtension.class)
class FencedKindTest {

    private static final long LEASE = 30_000;

    private static HaspClient client;
    private static RedisProbe probe;

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        probe = RedisProbe.connect(server.port());
    }

    @AfterAll
    static void stop() {
        client.close();
        probe.close();
    }

    private static String name(TestInfo test) {
        return "fenced:" + test.getTestMethod().orElseThrow().getName();
    }

    private static AcquireOutcome acquire(String name, LockOwner owner, int target) {
        return FencedKind.INSTANCE.acquire(ClientInternals.topology(client), name, owner, LEASE, target).join();
    }

    @Test
    void theCounterIsRedissonsTokenKeyInTheLocksSlot() {
        assertEquals("redisson_lock_token:{orders}", LockKeys.tokenCounter("orders"));
        assertEquals("redisson_lock_token:{a}b", LockKeys.tokenCounter("{a}b"));
    }

    @Test
    void everyAcquisitionTakesTheNextTokenReentriesIncluded(TestInfo test) {
        String name = name(test);
        LockOwner owner = LockOwner.of("c1", 1);
        AcquireOutcome first = acquire(name, owner, 1);
        assertTrue(first.acquired());
        assertEquals(1, first.token());
        assertEquals(2, acquire(name, owner, 2).token(), "a re-entry is an acquisition too");
        assertEquals("2", probe.call("HGET", name, owner.field()));
        assertEquals("2", probe.call("GET", LockKeys.tokenCounter(name)));
    }

    @Test
    void aRequestSentAgainAfterItsReplyWasLostTakesNoSecondToken(TestInfo test) {
        String name = name(test);
        LockOwner owner = LockOwner.of("c1", 1);
        long token = acquire(name, owner, 1).token();
        AcquireOutcome again = acquire(name, owner, 1);
        assertTrue(again.acquired());
        assertEquals(token, again.token(), "the token its first send took");
        assertEquals("1", probe.call("HGET", name, owner.field()), "and no second hold");
        assertEquals(String.valueOf(token), probe.call("GET", LockKeys.tokenCounter(name)));
    }

    @Test
    void aBusyLockTakesNoTokenAndTellsItsRemainingTime(TestInfo test) {
        String name = name(test);
        long token = acquire(name, LockOwner.of("c1", 1), 1).token();
        AcquireOutcome busy = acquire(name, LockOwner.of("c2", 1), 1);
        assertFalse(busy.acquired());
        assertTrue(busy.remainingMillis() > 0 && busy.remainingMillis() <= LEASE, busy.toString());
        assertEquals(String.valueOf(token), probe.call("GET", LockKeys.tokenCounter(name)));
    }

    @Test
    void anUndoneAcquisitionsTokenStaysSpent(TestInfo test) {
        String name = name(test);
        LockOwner owner = LockOwner.of("c1", 1);
        assertEquals(1, acquire(name, owner, 1).token());
        assertTrue(FencedKind.INSTANCE.rollback(ClientInternals.topology(client), name, owner, 1, LEASE).join());
        assertEquals(0L, probe.call("EXISTS", name));
        assertEquals(2, acquire(name, LockOwner.of("c2", 1), 1).token(), "tokens only grow");
    }

    @Test
    void aResentRequestWhoseCounterVanishedGetsANewTokenNeverZero(TestInfo test) {
        String name = name(test);
        LockOwner owner = LockOwner.of("c1", 1);
        acquire(name, owner, 1);
        probe.call("DEL", LockKeys.tokenCounter(name));
        AcquireOutcome again = acquire(name, owner, 1);
        assertTrue(again.acquired());
        assertEquals(1, again.token(), "a token from a new counter");
        assertEquals("1", probe.call("HGET", name, owner.field()), "and still one hold");
    }
}
