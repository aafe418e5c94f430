package io.hasp.internal.lock;

import static io.hasp.internal.lock.ServerView.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An owner gives up an acquisition (its deadline passes) while Redis has already granted it and the reply is still on
 * its way, then acquires again at once. Redis counts one owner's holds, not its attempts: sent at once, the new acquire
 * would find the owner at its own target count (the late grant) and take that hold for its own, and the give-back of
 * the abandoned grant would then free the lock the owner believes it holds. The new acquisition waits instead for the
 * late reply and the give-back, then takes a hold of its own. The proxy delays every reply by one second.
 */
class AbandonedAcquireTest extends ProxiedLockTest {

    private static final String NAME = "abandoned";

    AbandonedAcquireTest(RedisServer server) {
        super(server, NAME);
    }

    private CompletableFuture<Boolean> giveUpAfterTheGrant() throws Exception {
        proxy.delay(Duration.ofSeconds(1));
        CompletableFuture<Boolean> first = lock.tryLockAsync(200, -1, TimeUnit.MILLISECONDS, a);
        await("Redis granted the first acquire", SLACK, () -> Long.valueOf(1).equals(view.count(NAME, a.field())));
        return first;
    }

    private void assertTheNewHoldIsTheOwners() throws Exception {
        await("every reply arrived", SLACK, () -> client.commandsInFlight() == 0);
        assertEquals(1L, view.count(NAME, a.field()), "the new hold is in Redis, once");
        assertTrue(get(lock.isHeldByAsync(a)));
        assertEquals(1, get(lock.getHoldCountAsync(a)));
        get(lock.unlockAsync(a));
        assertFalse(view.exists(NAME), "one unlock frees it");
        assertEquals(0, service.heldLocks());
    }

    @Test
    void theOwnersNextAcquisitionWaitsForTheLateGrantAndItsGiveBack() throws Exception {
        CompletableFuture<Boolean> first = giveUpAfterTheGrant();
        assertFalse(get(first), "the deadline passed before the reply");
        assertTrue(get(lock.tryLockAsync(60, -1, TimeUnit.SECONDS, a)));
        assertTheNewHoldIsTheOwners();
    }

    @Test
    void aNextAcquisitionChainedOnTheResultWaitsToo() throws Exception {
        // Started by the completion itself, before anything that runs once the result is complete.
        CompletableFuture<Boolean> second = giveUpAfterTheGrant().thenCompose(acquired -> {
            assertFalse(acquired, "the deadline passed before the reply");
            return lock.tryLockAsync(60, -1, TimeUnit.SECONDS, a);
        });
        assertTrue(get(second));
        assertTheNewHoldIsTheOwners();
    }
}
