package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How the turns of a lock whose waiting processes take turns reach the waiters of this process: a turn wakes one
 * waiter or is passed on, a place kept by a release makes the next acquisition wait for its turn, and a turn
 * that came before the release's answer used that place up. No server: the channel alone.
 */
class TurnChannelTest {

    private static final String NAME = "orders";
    private static final LockOwner ASKING = LockOwner.of("8a0c6c39-55d4-8f3e-9a51-3b1c1d9e2f40", 7);

    private final AtomicInteger passed = new AtomicInteger();
    private final WaitChannel channel = new WaitChannel(LockKeys.channel(NAME), LockKeys.turnChannel(NAME, "me"),
            passed::incrementAndGet);
    private final List<String> woken = new ArrayList<>();

    private void parked(String who) {
        assertTrue(channel.parkUnlessPermit(new Wake(() -> woken.add(who))));
    }

    private void turn() {
        channel.onMessage(channel.turnChannel, LockKeys.UNLOCK_MESSAGE);
    }

    private long parkBeforeFirstTry() {
        return channel.parkBeforeFirstTry(ReentrantKind.INSTANCE, NAME, ASKING, System.nanoTime());
    }

    @Test
    void listensOnItsOwnTurnChannelFirst() {
        assertEquals("hasp_lock_turn__channel:{orders}:me", channel.firstChannel());
        assertFalse(channel.listensShared(), "the shared channel only once a waiter needs it");
    }

    @Test
    void aTurnWakesOneWaiterInArrivalOrder() {
        channel.ready.complete(channel);
        channel.join();
        channel.join();
        parked("first");
        parked("second");
        turn();
        assertEquals(List.of("first"), woken);
        assertEquals(0, passed.get());
    }

    @Test
    void aTurnWithNobodyParkedLeavesAPermitForAWaiterBetweenTries() {
        channel.ready.complete(channel);
        channel.join();
        turn();
        assertFalse(channel.parkUnlessPermit(new Wake(() -> woken.add("x"))), "the permit says: try again now");
        assertEquals(0, passed.get(), "a waiter here takes it");
    }

    @Test
    void aTurnThatNobodyHereTakesIsPassedOn() {
        channel.ready.complete(channel);
        turn();
        assertEquals(1, passed.get());
        assertEquals(0, channel.staysInLine(), "and acquisitions here are not expected back");
    }

    @Test
    void aReleaseOfThisProcessThatKeptTheTurnWakesAWaiterHere() {
        channel.ready.complete(channel);
        channel.join();
        parked("waiter");
        channel.freed(ReleaseOutcome.FREED_OWN_TURN, System.nanoTime(), 2, channel.place.turns());
        assertEquals(List.of("waiter"), woken);
    }

    @Test
    void aPlaceKeptByAReleaseMakesTheNextAcquisitionWaitForItsTurn() {
        channel.ready.complete(channel);
        assertEquals(0, parkBeforeFirstTry(), "nothing kept: it tries");
        assertEquals(1, channel.staysInLine(), "it came back: the next release keeps it a place");
        channel.freed(ReleaseOutcome.FREED_TURN_ELSEWHERE, System.nanoTime(), 1, channel.place.turns());
        assertEquals(Turns.PLACE_MILLIS / 3, parkBeforeFirstTry(), "it waits for its turn instead of trying");
        channel.join();
        parked("came back");
        turn();
        assertEquals(List.of("came back"), woken);
        assertEquals(0, parkBeforeFirstTry(), "the turn used the place up");
    }

    @Test
    void aKindThatTakesNoPlaceInLineTriesAtOnceWhereAPlaceIsKept() {
        channel.ready.complete(channel);
        parkBeforeFirstTry();
        channel.freed(ReleaseOutcome.FREED_TURN_ELSEWHERE, System.nanoTime(), 1, channel.place.turns());
        assertEquals(0, channel.parkBeforeFirstTry(READER, NAME, ASKING, System.nanoTime()),
                "a reader does not wait for its process's turn in the writers' line");
        assertEquals(Turns.PLACE_MILLIS / 3, parkBeforeFirstTry(), "a writer does");
    }

    /** A kind that shares the turn channel but takes no place in line, as a read/write lock's readers. */
    private static final LockKind READER = new LockKind() {
        @Override
        public String channel(String name) {
            return LockKeys.channel(name);
        }

        @Override
        public boolean standsInLine() {
            return false;
        }

        @Override
        public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner,
                long leaseMillis, int targetCount) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner,
                String latch, long leaseMillis, long latchMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
                long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
                long leaseMillis, boolean keysDeclared) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
            throw new UnsupportedOperationException();
        }
    };

    @Test
    void aTurnThatCameBeforeTheReleasesAnswerUsedThePlaceUp() {
        channel.ready.complete(channel);
        parkBeforeFirstTry();
        long turnsAtSend = channel.place.turns();
        channel.join();   // a waiter between tries takes the turn that overtook the answer
        turn();
        channel.freed(ReleaseOutcome.FREED_TURN_ELSEWHERE, System.nanoTime(), 1, turnsAtSend);
        assertEquals(0, parkBeforeFirstTry(), "no place is counted on: the next acquisition tries");
    }

    @Test
    void aReleaseWhileOthersListenOnTheSharedChannelLetsThemGoFirst() {
        channel.ready.complete(channel);
        long now = System.nanoTime();   // the release's answer and the acquisition at one instant: no timing
        channel.freed(ReleaseOutcome.FREED_FOR_ALL, now, 0, channel.place.turns());
        long park = channel.parkBeforeFirstTry(ReentrantKind.INSTANCE, NAME, ASKING, now + 1_000_000);
        assertTrue(park > 0 && park <= WaitChannel.YIELD_NANOS / 1_000_000, "a short yield: " + park + " ms");
    }

    @Test
    void aResubscriptionEndsAKeptPlace() {
        channel.ready.complete(channel);
        parkBeforeFirstTry();
        channel.freed(ReleaseOutcome.FREED_TURN_ELSEWHERE, System.nanoTime(), 1, channel.place.turns());
        channel.onResubscribed(channel.turnChannel);
        assertEquals(0, parkBeforeFirstTry(), "messages may have been lost: it tries");
    }
}
