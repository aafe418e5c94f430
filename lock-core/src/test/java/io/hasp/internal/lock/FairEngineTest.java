package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's part of the fair lock without a server: {@link MemoryFairKind} keeps the line as the scripts do,
 * {@link MemoryPubSub} carries the wake-ups and {@link ManualTimer} is the clock. Pinned here: waiters are served
 * in the order they came and only the head is woken (no hand-over inside a client); a waiter whose wait ends, or
 * whose future is cancelled, gives its place back at once; the owner's next acquisition waits until that is
 * answered; a re-sent acquire keeps one place; a waiter that stopped looking is dropped once its place lease ends.
 * The rules of the line itself against a real server: {@code FairKindTest}.
 */
class FairEngineTest {

    private static final long LEASE = 30_000;
    private static final long PLACE_LEASE = 3_000;
    private static final long WAIT = 60_000_000_000L;
    private static final String NAME = "fair-engine";

    private final ManualTimer timer = new ManualTimer();
    private final MemoryPubSub pubSub = new MemoryPubSub();
    private final MemoryFairKind kind = new MemoryFairKind(timer::nanoTime, pubSub, PLACE_LEASE);
    private LockService here;
    private LockService elsewhere;

    @BeforeEach
    void services() {
        here = service("here");
        elsewhere = service("elsewhere");
    }

    private LockService service(String clientId) {
        return new LockService(clientId, new PartsTopology(LockEngineTest.NO_SERVER, pubSub), timer, Duration.ofSeconds(30),
                Duration.ofMillis(10), Duration.ofSeconds(3), timer::nanoTime);
    }

    @AfterEach
    void close() {
        here.close();
        elsewhere.close();
    }

    private CompletableFuture<Boolean> waitFor(LockService service, LockOwner owner, long waitNanos) {
        return service.tryAcquire(kind, NAME, owner, LEASE, waitNanos);
    }

    @Test
    void waitersAreServedInTheOrderTheyCameAndOnlyTheHeadIsWoken() {
        LockOwner holder = here.owner(9);
        assertTrue(waitFor(here, holder, 0).join());
        LockOwner first = elsewhere.owner(1);
        LockOwner second = here.owner(2);
        LockOwner third = elsewhere.owner(3);
        CompletableFuture<Boolean> one = waitFor(elsewhere, first, WAIT);
        CompletableFuture<Boolean> two = waitFor(here, second, WAIT);
        CompletableFuture<Boolean> three = waitFor(elsewhere, third, WAIT);
        assertEquals(List.of(first.field(), second.field(), third.field()), kind.line(NAME));

        here.release(kind, NAME, holder).join();
        assertTrue(one.join(), "the head, of the other client, is served: no hand-over to this client's waiter");
        assertFalse(two.isDone());
        assertFalse(three.isDone());
        elsewhere.release(kind, NAME, first).join();
        assertTrue(two.join());
        assertFalse(three.isDone(), "a thread of the releasing client does not pass the line either");
        here.release(kind, NAME, second).join();
        assertTrue(three.join());
        assertEquals(List.of(), kind.line(NAME));
    }

    @Test
    void aWaiterWhoseWaitEndsGivesItsPlaceBackAndTheNextIsWoken() {
        LockOwner holder = elsewhere.owner(9);
        assertTrue(waitFor(elsewhere, holder, 0).join());
        CompletableFuture<Boolean> impatient = waitFor(here, here.owner(1), TimeUnit.MILLISECONDS.toNanos(100));
        LockOwner patient = here.owner(2);
        CompletableFuture<Boolean> next = waitFor(here, patient, WAIT);
        assertEquals(2, kind.line(NAME).size());

        timer.advance(150, TimeUnit.MILLISECONDS);
        assertFalse(impatient.join());
        assertEquals(List.of(patient.field()), kind.line(NAME), "its place given back at once");
        assertTrue(kind.calls().contains("leave " + here.owner(1).field() + " undoing 0"),
                "a place to give back, no grant to undo: " + kind.calls());
        elsewhere.release(kind, NAME, holder).join();
        assertTrue(next.join());
    }

    @Test
    void aCancelledWaiterGivesItsPlaceBack() {
        assertTrue(waitFor(elsewhere, elsewhere.owner(9), 0).join());
        CompletableFuture<Boolean> waiting = waitFor(here, here.owner(1), WAIT);
        assertEquals(1, kind.line(NAME).size());
        waiting.cancel(false);
        assertEquals(List.of(), kind.line(NAME));
    }

    @Test
    void aTryWithoutWaitNeitherTakesAPlaceNorGivesOneBack() {
        assertTrue(waitFor(elsewhere, elsewhere.owner(9), 0).join());
        LockOwner owner = here.owner(1);
        assertFalse(waitFor(here, owner, 0).join());
        assertEquals(List.of(), kind.line(NAME));
        assertEquals(List.of("grant " + elsewhere.owner(9).field(), "try " + owner.field()), kind.calls());
        assertTrue(waitFor(here, owner, WAIT) != null && kind.line(NAME).contains(owner.field()),
                "the owner's next acquisition is not held back by anything");
    }

    @Test
    void aReentryOfALostHoldFailsWithoutTakingOrGivingBackAPlace() {
        LockOwner owner = here.owner(1);
        assertTrue(waitFor(here, owner, 0).join());
        kind.holds().forget(NAME);   // the hold ended unnoticed
        assertTrue(waitFor(elsewhere, elsewhere.owner(2), 0).join());
        CompletableFuture<Boolean> reentry = waitFor(here, owner, WAIT);
        assertTrue(reentry.isCompletedExceptionally());
        assertEquals(List.of(), kind.line(NAME));
        assertFalse(kind.calls().stream().anyMatch(c -> c.startsWith("leave")), String.valueOf(kind.calls()));
    }

    @Test
    void anUnlockOfAnOwnerThatOnlyWaitsFailsAtOnce() {
        assertTrue(waitFor(elsewhere, elsewhere.owner(9), 0).join());
        LockOwner owner = here.owner(1);
        CompletableFuture<Boolean> waiting = waitFor(here, owner, WAIT);
        CompletableFuture<Void> unlock = here.release(kind, NAME, owner);
        assertTrue(unlock.isCompletedExceptionally(), "a place in line is no hold, and nothing to wait for");
        assertFalse(waiting.isDone());
        assertEquals(List.of(owner.field()), kind.line(NAME));
    }

    @Test
    void theOwnersNextAcquisitionWaitsUntilItsPlaceWasGivenBack() {
        assertTrue(waitFor(elsewhere, elsewhere.owner(9), 0).join());
        LockOwner owner = here.owner(1);
        CompletableFuture<Boolean> first = waitFor(here, owner, TimeUnit.MILLISECONDS.toNanos(100));
        kind.holds().holdReplies();
        timer.advance(150, TimeUnit.MILLISECONDS);
        assertFalse(first.join());
        int before = kind.calls().size();
        CompletableFuture<Boolean> again = waitFor(here, owner, WAIT);
        assertEquals(before, kind.calls().size(), "nothing sent while the give-back is unanswered");
        kind.holds().deliverHeldReplies();
        assertEquals(List.of(owner.field()), kind.line(NAME), "in line again once it was answered");
        assertFalse(again.isDone());
    }

    @Test
    void anAcquireSentAgainAfterItsReplyWasLostKeepsOnePlace() {
        assertTrue(waitFor(elsewhere, elsewhere.owner(9), 0).join());
        kind.loseNextReply();
        LockOwner owner = here.owner(1);
        CompletableFuture<Boolean> waiting = waitFor(here, owner, WAIT);
        timer.advance(1, TimeUnit.SECONDS);   // the backoff, then the same request again
        assertEquals(List.of(owner.field()), kind.line(NAME));
        assertEquals(1, kind.calls().stream().filter(c -> c.equals("enqueue " + owner.field())).count());
        elsewhere.release(kind, NAME, elsewhere.owner(9)).join();
        assertTrue(waiting.join());
    }

    @Test
    void aWaiterThatStoppedLookingIsDroppedOnceItsPlaceLeaseEnds() {
        LockOwner holder = here.owner(9);
        assertTrue(waitFor(here, holder, 0).join());
        CompletableFuture<Boolean> dead = waitFor(elsewhere, elsewhere.owner(1), WAIT);
        LockOwner live = here.owner(2);
        CompletableFuture<Boolean> next = waitFor(here, live, WAIT);
        kind.cutOff("elsewhere");   // its process died: it looks no more, and nothing it sends arrives

        here.release(kind, NAME, holder).join();
        assertFalse(next.isDone(), "the dead waiter heads the line");
        timer.advance(PLACE_LEASE + PLACE_LEASE / 3 + 10, TimeUnit.MILLISECONDS);
        assertTrue(next.join(), "served once the dead waiter's place lapsed, by its own next look");
        assertEquals(List.of(), kind.line(NAME));
        assertFalse(dead.isDone());
    }
}
