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
    private final List<Grant> declined = new ArrayList<>();
    private final List<LockOwner> declinedTo = new ArrayList<>();
    private final List<String> left = new ArrayList<>();
    private final WaitChannel channel = new WaitChannel(LockKeys.channel(NAME), LockKeys.turnChannel(NAME, "me"),
            new UnusedTurns() {
                @Override
                public void pass() {
                    passed.incrementAndGet();
                }

                @Override
                public CompletableFuture<Void> leave(LockOwner taken) {
                    left.add(taken == null ? "nobody" : taken.field());
                    return CompletableFuture.completedFuture(null);
                }

                @Override
                public long namedAtNanos(Grant grant) {
                    return grant.stamp();
                }

                @Override
                public void decline(Grant grant, HandOver to) {
                    declined.add(grant);
                    if (to != null) {
                        declinedTo.add(to.successor().owner());
                    }
                }
            });
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

    /** A parked acquisition of {@code owner} with {@code lease}; {@code granted} records the reports it gets. */
    private Wake parkedHeir(LockOwner owner, long lease, List<Boolean> granted) {
        return parkedHeir(owner, lease, granted, new ArrayList<>());
    }

    /** ... and {@code since} records since when the lock it was handed is counted as granted. */
    private Wake parkedHeir(LockOwner owner, long lease, List<Boolean> granted, List<Long> since) {
        Successor heir = new Successor(ReentrantKind.INSTANCE, NAME, owner, lease) {
            @Override
            void handOverEnded(boolean handedOver, Throwable error, long sentNanos) {
                granted.add(handedOver);
                since.add(sentNanos);
            }
        };
        Wake wake = new Wake(() -> woken.add("heir " + owner.field()), heir);
        assertTrue(channel.parkUnlessPermit(wake));
        return wake;
    }

    private void grant(String message) {
        channel.onMessage(channel.turnChannel, message);
    }

    private static final LockOwner OTHER = LockOwner.of("8a0c6c39-55d4-8f3e-9a51-3b1c1d9e2f40", 8);

    @Test
    void aGrantGoesToAParkedAcquisitionOfTheOwnerAndLeaseGrantedWithoutWakingIt() {
        channel.ready.complete(channel);
        channel.join();
        channel.join();
        channel.join();
        List<Boolean> other = new ArrayList<>();
        List<Boolean> otherLease = new ArrayList<>();
        List<Boolean> heir = new ArrayList<>();
        List<Long> since = new ArrayList<>();
        parkedHeir(OTHER, 30_000, other);
        parkedHeir(ASKING, 10_000, otherLease);
        parkedHeir(ASKING, 30_000, heir, since);
        grant("g12:30000:" + ASKING.field());
        assertEquals(List.of(12L), since, "granted after the heir was named, by its stamp");
        assertEquals(List.of(), other, "another owner still waits");
        assertEquals(List.of(), otherLease, "so does the owner's acquisition that asked for another lease");
        assertEquals(List.of(true), heir, "it holds the lock, granted");
        assertEquals(List.of(), woken, "nobody runs an acquire");
        assertEquals(List.of(), declined);
        assertEquals(2, channel.parked());
        assertTrue(channel.parkBeforeFirstTry(ReentrantKind.INSTANCE, NAME, LockOwner.of("other", 1),
                System.nanoTime()) > 0, "a new local acquisition waits for the granted holder's unlock");
    }

    @Test
    void aGrantForAnOwnerNotParkedHereIsGivenBackAndAWaiterBetweenTriesLooksAtOnce() {
        channel.ready.complete(channel);
        channel.join();
        List<Boolean> reports = new ArrayList<>();
        Wake wake = parkedHeir(ASKING, 30_000, reports);
        assertTrue(wake.claim(), "its timeout took it: it is sending an acquire");
        channel.unpark(wake);
        grant("g11:30000:" + ASKING.field());
        assertEquals(List.of(new Grant(11, 30_000, ASKING.field())), declined);
        assertEquals(List.of(), reports);
        assertEquals(0, passed.get(), "a grant is not a turn to pass");
        assertFalse(channel.parkUnlessPermit(new Wake(() -> woken.add("x"))), "the waiter between tries looks now");
    }

    @Test
    void aGrantNobodyHereWaitsForIsGivenBackAndAcquisitionsAreNotExpectedBack() {
        channel.ready.complete(channel);
        parkBeforeFirstTry();
        grant("g11:30000:" + ASKING.field());
        assertEquals(List.of(new Grant(11, 30_000, ASKING.field())), declined);
        assertEquals(0, channel.staysInLine());
    }

    @Test
    void aMessageThatIsNeitherATurnNorAGrantChangesNothing() {
        channel.ready.complete(channel);
        channel.join();
        List<Boolean> reports = new ArrayList<>();
        parkedHeir(ASKING, 30_000, reports);
        grant("g11");
        grant("hello");
        assertEquals(List.of(), reports);
        assertEquals(List.of(), declined);
        assertEquals(1, channel.parked());
    }

    @Test
    void aGrantForAnOwnerNotParkedHereGoesToTheLongestParkedWaiterInstead() {
        channel.ready.complete(channel);
        channel.join();
        channel.join();
        List<Boolean> first = new ArrayList<>();
        List<Boolean> second = new ArrayList<>();
        parkedHeir(OTHER, 30_000, first);
        parkedHeir(LockOwner.of("8a0c6c39-55d4-8f3e-9a51-3b1c1d9e2f40", 9), 30_000, second);
        grant("g11:30000:" + ASKING.field());
        assertEquals(List.of(new Grant(11, 30_000, ASKING.field())), declined);
        assertEquals(List.of(OTHER), declinedTo, "the decline hands the lock to the longest-parked waiter");
        assertEquals(1, channel.parked(), "claimed: it waits for the decline's answer, not for a wake");
        assertEquals(List.of(), first, "told only once the decline answers");
    }

    @Test
    void onceTheClientClosesAGrantIsDeclinedEvenForAParkedAcquisitionOfItsOwner() {
        channel.ready.complete(channel);
        channel.join();
        channel.join();
        List<Boolean> first = new ArrayList<>();
        List<Boolean> heir = new ArrayList<>();
        parkedHeir(OTHER, 30_000, first);
        parkedHeir(ASKING, 30_000, heir);
        grant("g11:30000:" + OTHER.field());   // taken before the close: its owner is counted among the holders
        channel.leaveLine();
        grant("g12:30000:" + ASKING.field());
        assertEquals(List.of(true), first);
        assertEquals(List.of(), heir, "its process leaves the line: the grant goes on, not to it");
        assertEquals(List.of(new Grant(12, 30_000, ASKING.field())), declined);
        assertEquals(List.of(), declinedTo, "nor to another waiter here");
        assertEquals(List.of(OTHER.field()), left, "the owner that took a grant here is counted as holding");
    }
}
