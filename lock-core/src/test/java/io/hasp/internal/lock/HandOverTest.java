package io.hasp.internal.lock;

import static io.hasp.internal.lock.ServerView.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.internal.lock.ServerView.ScriptCall;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Hand-over: an unlock that ends its owner's last hold gives the lock, in the unlock script itself,
 * to a waiter of the same client parked on it; at most {@link WaitChannel#MAX_HAND_OVERS} times in
 * a row, so other clients' waiters get their turn. Against a real redis-server, through a
 * {@link TcpProxy} that loses or delays replies.
 */
class HandOverTest extends ProxiedLockTest {

    private static final String NAME = "stock";
    private static final String CHANNEL = "redisson_lock__channel:{stock}";

    HandOverTest(RedisServer server) {
        super(server, NAME);
    }

    private static LockService service(String clientId, HaspClient client) {
        return service(clientId, client, WATCHDOG);
    }

    private void awaitParked(LockService in, int count) {
        await(count + " parked waiter(s)", SLACK, () -> {
            WaitChannel channel = in.waiters().channel(CHANNEL);
            return channel != null && channel.parked() == count;
        });
    }

    /**
     * Nobody listens on the lock's unlock channel here: a listener there may be a client that takes no turns, and a
     * release then frees the lock for it instead of handing it over. The tests count publishes instead.
     */
    @Override
    String observedChannel(String name) {
        return "unobserved";
    }

    /** Messages published so far, on any channel. */
    private long published() {
        return view.commandCalls("publish");
    }

    private List<ScriptCall> handOvers() {
        return view.scriptCalls(UnlockScript.SCRIPT, NAME).stream().filter(c -> !c.argv().get(5).isEmpty()).toList();
    }

    @Test
    void anUnlockHandsTheLockToAParkedLocalWaiterInTheUnlockScript() throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        int acquiresBefore = view.scriptCalls(AcquireScript.SCRIPT, NAME).size();
        long publishedBefore = published();

        get(lock.unlockAsync(a));
        assertTrue(get(waiting));

        assertEquals(1L, view.count(NAME, "me:2"));
        assertNull(view.count(NAME, "me:1"));
        assertEquals(WATCHDOG.toMillis(), view.pttl(NAME), 60_000, "the waiter's own lease");
        assertEquals(acquiresBefore, view.scriptCalls(AcquireScript.SCRIPT, NAME).size(), "no acquire for it");
        List<ScriptCall> handOvers = handOvers();
        assertEquals(1, handOvers.size());
        assertEquals("me:2", handOvers.get(0).argv().get(5));
        assertEquals(publishedBefore, published(), "nothing published: the lock was never free");
        assertEquals(1, service.heldLocks());
        assertTrue(get(lock.isHeldByAsync(b)));
        assertEquals(HoldEnd.RELEASED, get(lock.holdEnd(a)));

        get(lock.unlockAsync(b));
        assertFalse(view.exists(NAME));
        assertEquals(publishedBefore + 1, published(), "no waiter left: freed for everyone, and announced");
        assertEquals(0, service.heldLocks());
    }

    @Test
    void anAcquisitionBehindAHolderOfThisClientParksWithoutAnAttempt() throws Exception {
        LockOwner c = lock.owner(3);
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> second = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        get(lock.unlockAsync(a));
        assertTrue(get(second));  // handed over: b holds it, and this client knows

        CompletableFuture<Boolean> third = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, c);
        awaitParked(service, 1);
        assertEquals(List.of(), acquiresBy(c), "no attempt while b holds it");
        get(lock.unlockAsync(b));
        assertTrue(get(third));
        assertEquals(1L, view.count(NAME, "me:3"));
        assertEquals(List.of(), acquiresBy(c), "handed over in turn");
    }

    @Test
    void aWaiterBehindAHolderWhoseHoldIsLostLooksAgain() throws Exception {
        try (LockService watched = service("us", client, Duration.ofSeconds(12))) {
            HaspLock shortLease = Locks.reentrant(watched, NAME);
            LockOwner x = shortLease.owner(1);
            LockOwner y = shortLease.owner(2);
            LockOwner z = shortLease.owner(3);
            get(shortLease.lockAsync(x));
            CompletableFuture<Boolean> second = shortLease.tryLockAsync(60, -1, TimeUnit.SECONDS, y);
            awaitParked(watched, 1);
            get(shortLease.unlockAsync(x));
            assertTrue(get(second));
            // z parks behind y for at most y's lease (12 s), longer than z is willing to wait (11 s).
            CompletableFuture<Boolean> third = shortLease.tryLockAsync(11, -1, TimeUnit.SECONDS, z);
            awaitParked(watched, 1);
            CompletableFuture<HoldEnd> yEnd = shortLease.holdEnd(y);
            // y's lock disappears behind the client's back: no unlock, no message. The watchdog's
            // next renewal (every 4 s) finds it gone and wakes z in time.
            view.delete(NAME);
            assertEquals(HoldEnd.LOST, get(yEnd));
            assertTrue(get(third));
            assertEquals(1L, view.count(NAME, "us:3"));
        }
    }

    /** b's acquisition and a's unlock, once that unlock handed the lock to b in Redis and its reply is held back. */
    private record HandOverUnderway(CompletableFuture<Boolean> waiting, CompletableFuture<Void> unlocking) {
    }

    /**
     * a holds the lock, b parks for it (for at most {@code waitSeconds}), every reply is then delayed by
     * {@code delay}, and a unlocks: returns once Redis handed the lock to b, with the replies still on their way.
     */
    private HandOverUnderway handOverWithRepliesDelayed(int waitSeconds, Duration delay) throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(waitSeconds, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        proxy.delay(delay);
        CompletableFuture<Void> unlocking = lock.unlockAsync(a);
        await("the server handed it over", SLACK, () -> Long.valueOf(1).equals(view.count(NAME, "me:2")));
        return new HandOverUnderway(waiting, unlocking);
    }

    @Test
    void aWaiterThatGivesUpAsTheLockIsHandedToItHoldsBackItsOwnersNextAcquisition() throws Exception {
        HandOverUnderway underway = handOverWithRepliesDelayed(60, Duration.ofSeconds(1));
        // b gives up while the report of the hand-over is on its way, and tries again at once: sent now, its acquire
        // would find b at its target count, and the hand-over's give-back would take that hold away.
        assertTrue(underway.waiting().cancel(false));
        CompletableFuture<Boolean> again = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        get(underway.unlocking());
        assertTrue(get(again));
        await("every reply arrived", SLACK, () -> client.commandsInFlight() == 0);
        assertEquals(1L, view.count(NAME, "me:2"), "b's new hold is in Redis, once");
        assertTrue(get(lock.isHeldByAsync(b)));
        assertEquals(1, service.heldLocks());
        get(lock.unlockAsync(b));
        assertFalse(view.exists(NAME));
    }

    private List<ScriptCall> acquiresBy(LockOwner owner) {
        return view.scriptCalls(AcquireScript.SCRIPT, NAME).stream()
                .filter(call -> call.argv().contains(owner.field())).toList();
    }

    @Test
    void aReentrantUnlockThatKeepsHoldsHandsNothingOver() throws Exception {
        get(lock.lockAsync(a));
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        get(lock.unlockAsync(a));
        assertEquals(1L, view.count(NAME, "me:1"));
        assertFalse(waiting.isDone());
        assertEquals(List.of(), handOvers());
        get(lock.unlockAsync(a));
        assertTrue(get(waiting));
        assertEquals(1L, view.count(NAME, "me:2"));
    }

    @Test
    void aHandOverWhoseReplyWasLostGivesTheWaiterOneHold() throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
        awaitParked(service, 1);
        proxy.dropNextReplyAndCut();
        get(lock.unlockAsync(a));
        assertTrue(get(waiting));
        assertEquals(1L, view.count(NAME, "me:2"), "one hold, not two");
        List<ScriptCall> handOvers = handOvers();
        assertTrue(handOvers.size() >= 2, "the unlock was sent again: " + handOvers);
        assertEquals(1, handOvers.stream().map(c -> c.keys().get(2)).distinct().count(), "with the same latch");
        assertEquals(1, get(lock.getHoldCountAsync(b)));
    }

    @Test
    void aWaiterWhoseDeadlinePassesDuringTheHandOverGivesTheLockBack() throws Exception {
        HandOverUnderway underway = handOverWithRepliesDelayed(3, Duration.ofSeconds(6));
        assertEquals(false, get(underway.waiting()), "the deadline passed before the reply came back");
        assertNull(get(underway.unlocking()));
        await("the late hand-over given back", SLACK, () -> !view.exists(NAME));
        await("no hold left", SLACK, () -> service.heldLocks() == 0);
        assertFalse(get(lock.isHeldByAsync(b)));
    }

    @Test
    void afterTheMostHandOversInARowTheLockIsFreedForEveryone() throws Exception {
        get(lock.lockAsync(a));
        long publishedBefore = published();
        LockOwner holder = a;
        LockOwner next = b;
        for (int i = 0; i < WaitChannel.MAX_HAND_OVERS; i++) {
            CompletableFuture<Void> waiting = lock.lockAsync(next);
            awaitParked(service, 1);
            get(lock.unlockAsync(holder));
            get(waiting);
            LockOwner swap = holder;
            holder = next;
            next = swap;
        }
        assertEquals(WaitChannel.MAX_HAND_OVERS, handOvers().size());
        assertEquals(publishedBefore, published(), "nothing published: the lock was never free");

        // Another client's waiter would learn of the lock's release only from this message.
        CompletableFuture<Void> waiting = lock.lockAsync(next);
        awaitParked(service, 1);
        get(lock.unlockAsync(holder));
        assertTrue(published() > publishedBefore, "freed and announced");
        get(waiting);  // the local waiter's turn came: nobody else waits in line
        assertEquals(WaitChannel.MAX_HAND_OVERS, handOvers().size());
        assertEquals(1L, view.count(NAME, next.field()));
    }
}
