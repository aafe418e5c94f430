package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.lock.FencedLock;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fenced lock through a proxy that loses a reply: the acquire is sent again, and that second send
 * takes no second token, so one hold has one token and the counter moved once.
 */
class FencedRetryTest extends ProxiedLockTest {

    private static final String NAME = "fenced-retry";

    FencedRetryTest(RedisServer server) {
        super(server, NAME);
    }

    @Test
    void anAcquireWhoseReplyWasLostTakesOneTokenForOneHold() throws Exception {
        FencedLock fenced = Locks.fenced(service, NAME);
        view.call("SET", LockKeys.tokenCounter(NAME), "41");
        proxy.dropNextReplyAndCut();
        OptionalLong token = get(fenced.tryLockAndGetTokenAsync(Duration.ofSeconds(10),
                Duration.ofSeconds(30), a));
        assertEquals(OptionalLong.of(42), token, "the token of the first send, which took effect");
        assertTrue(view.scriptCalls(FencedAcquireScript.SCRIPT, NAME).size() >= 2, "the acquire was sent again");
        assertEquals("42", view.call("GET", LockKeys.tokenCounter(NAME)), "one token for one hold");
        assertEquals(1L, view.count(NAME, "me:1"));
        assertEquals(OptionalLong.of(42), fenced.getToken(a));
        get(fenced.unlockAsync(a));
        assertEquals(0, fenced.getHoldCountAsync(a).get(30, TimeUnit.SECONDS));
    }
}
