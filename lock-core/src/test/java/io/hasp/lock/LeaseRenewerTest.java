package io.hasp.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.client.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The watchdog's batching, loss detection and unlock/renewal ordering, on a manual timer and clock. */
class LeaseRenewerTest {

    private static final long LEASE = 30_000;
    private static final LockKind KIND = ReentrantKind.INSTANCE;
    private static final LockOwner OWNER = LockOwner.of("client", 1);

    private final ManualTimer timer = new ManualTimer();
    private final HoldRegistry holds = new HoldRegistry();
    private final List<Call> calls = new ArrayList<>();
    private final LeaseRenewer renewer = new LeaseRenewer(holds, timer, timer::nanoTime, LEASE, 100,
            (kind, keys, owners, lease) -> {
                Call call = new Call(kind, List.copyOf(keys), List.copyOf(owners), lease);
                calls.add(call);
                return call.reply;
            });

    private record Call(LockKind kind, List<String> keys, List<LockOwner> owners, long lease,
            CompletableFuture<String> reply) {
        Call(LockKind kind, List<String> keys, List<LockOwner> owners, long lease) {
            this(kind, keys, owners, lease, new CompletableFuture<>());
        }

        void answer(char each) {
            reply.complete(String.valueOf(each).repeat(keys.size()));
        }
    }

    private Hold watchdogHold(String name) {
        return holds.acquired(KIND, name, OWNER, 1, LEASE, true, timer.nanoTime());
    }

    @Test
    void renewsEveryThirdOfTheLeaseInBatchesOfAtMostOneHundred() {
        for (int i = 0; i < 250; i++) {
            watchdogHold("lock-" + i);
        }
        renewer.start();
        timer.advance(LEASE / 3 - 1, TimeUnit.MILLISECONDS);
        assertEquals(0, calls.size(), "nothing before a third of the lease");
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertEquals(3, calls.size());
        assertEquals(List.of(100, 100, 50), calls.stream().map(c -> c.keys().size()).toList());
        assertTrue(calls.stream().allMatch(c -> c.lease() == LEASE && c.owners().stream().allMatch(OWNER::equals)));
        calls.forEach(c -> c.answer('1'));
        timer.advance(LEASE / 3, TimeUnit.MILLISECONDS);
        assertEquals(6, calls.size(), "the next pass renews them all again");
        assertEquals(6, renewer.calls());
        assertEquals(250, holds.size());
    }

    @Test
    void aHoldFoundGoneIsReportedLostAndNoLongerRenewed() {
        Hold kept = watchdogHold("kept");
        Hold gone = watchdogHold("gone");
        renewer.renewNow();
        Call call = calls.get(0);
        int goneAt = call.keys().indexOf("gone");
        StringBuilder outcome = new StringBuilder("11");
        outcome.setCharAt(goneAt, '0');
        call.reply().complete(outcome.toString());

        assertEquals(HoldEnd.LOST, gone.end.getNow(null));
        assertFalse(kept.end.isDone());
        renewer.renewNow();
        assertEquals(List.of("kept"), calls.get(1).keys());
    }

    @Test
    void redisUnreachableIsRetriedAndReportedLostOnlyOnceTheLeaseRanOut() {
        Hold hold = watchdogHold("lock");
        renewer.renewNow();
        calls.get(0).reply().completeExceptionally(new RuntimeException("connection refused"));
        assertFalse(hold.end.isDone(), "one failed renewal is not a loss");

        timer.advance(LEASE - 1, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        calls.get(calls.size() - 1).reply().completeExceptionally(new RuntimeException("connection refused"));
        assertFalse(hold.end.isDone(), "the lease has not run out yet");

        timer.advance(1, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        calls.get(calls.size() - 1).reply().completeExceptionally(new RuntimeException("connection refused"));
        assertEquals(HoldEnd.LOST, hold.end.getNow(null));
        assertEquals(0, holds.size());
    }

    @Test
    void aConfirmedRenewalExtendsTheLeaseFromItsSendTime() {
        Hold hold = watchdogHold("lock");
        timer.advance(LEASE / 2, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        calls.get(0).answer('1');
        timer.advance(LEASE - 1, TimeUnit.MILLISECONDS);
        assertFalse(hold.leaseRunOut(timer.nanoTime()));
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertTrue(hold.leaseRunOut(timer.nanoTime()));
    }

    @Test
    void anUnlockWaitsForTheRenewalInFlightAndNoRenewalStartsWhileItRuns() {
        Hold hold = watchdogHold("lock");
        renewer.renewNow();
        Call inFlight = calls.get(0);

        CompletableFuture<Void> mayUnlock = hold.beginClosing();
        assertFalse(mayUnlock.isDone(), "the unlock must wait for the renewal already sent");
        renewer.renewNow();
        assertEquals(1, calls.size(), "no second renewal of a hold in flight");

        inFlight.answer('1');
        assertTrue(mayUnlock.isDone());
        renewer.renewNow();
        assertEquals(1, calls.size(), "no renewal of a hold being unlocked");

        holds.end(hold, HoldEnd.RELEASED);
        renewer.renewNow();
        assertEquals(1, calls.size(), "no renewal after the unlock");
        assertEquals(HoldEnd.RELEASED, hold.end.getNow(null));
    }

    @Test
    void aFailedUnlockLetsRenewalResume() {
        Hold hold = watchdogHold("lock");
        assertTrue(hold.beginClosing().isDone());
        hold.endClosing(0);
        renewer.renewNow();
        assertEquals(1, calls.size());
    }

    @Test
    void holdsWithAnExplicitLeaseAreNeverRenewedAndForgottenWellAfterTheyExpire() {
        Hold fixed = holds.acquired(KIND, "fixed", OWNER, 1, 5_000, false, timer.nanoTime());
        renewer.renewNow();
        assertEquals(0, calls.size());
        assertNull(fixed.end.getNow(null));

        timer.advance(5_000 + LEASE + 1, TimeUnit.MILLISECONDS);
        renewer.renewNow();
        assertEquals(HoldEnd.EXPIRED, fixed.end.getNow(null));
        assertEquals(0, holds.size());
    }

    @Test
    void aReacquiredHoldIsNotEndedByTheOutcomeOfTheOldOne() {
        Hold first = watchdogHold("lock");
        renewer.renewNow();
        holds.end(first, HoldEnd.RELEASED);
        Hold second = watchdogHold("lock");
        calls.get(0).answer('0');
        assertEquals(HoldEnd.RELEASED, first.end.getNow(null));
        assertFalse(second.end.isDone());
        assertSame(second, holds.get(KIND, "lock", OWNER));
    }

    @Test
    void closeStopsThePeriodicTask() {
        watchdogHold("lock");
        renewer.start();
        renewer.close();
        timer.advance(LEASE, TimeUnit.MILLISECONDS);
        assertEquals(0, calls.size());
        assertEquals(0, timer.pending());
    }

    @Test
    void anAcquisitionLandingAsTheHoldIsFoundLostStartsANewHoldThatIsRenewed() {
        Hold old = watchdogHold("lock");
        holds.end(old, HoldEnd.LOST);
        assertFalse(old.acquired(2, LEASE, true, timer.nanoTime()), "an ended hold takes no new acquisition");
        Hold fresh = holds.acquired(KIND, "lock", OWNER, 2, LEASE, true, timer.nanoTime());
        assertFalse(fresh == old);
        assertEquals(HoldEnd.LOST, old.end.getNow(null));
        renewer.renewNow();
        assertEquals(List.of("lock"), calls.get(0).keys(), "the new hold is renewed");
    }

    @Test
    void holdsOfTwoKindsOnOneNameAreTwoHoldsRenewedInOneBatchPerKind() {
        LockKind other = new OtherKind();
        for (int i = 0; i < 3; i++) {
            watchdogHold("lock-" + i);
            holds.acquired(other, "lock-" + i, OWNER, 1, LEASE, true, timer.nanoTime());
        }
        assertEquals(6, holds.size());
        assertEquals(3, holds.size(other));
        Hold mine = holds.get(KIND, "lock-1", OWNER);
        Hold theirs = holds.get(other, "lock-1", OWNER);
        renewer.renewNow();
        assertEquals(2, calls.size(), "one call per kind");
        assertEquals(Set.of(KIND, other), Set.of(calls.get(0).kind(), calls.get(1).kind()));
        assertTrue(calls.stream().allMatch(c -> c.keys().size() == 3));
        Call ofOther = calls.get(0).kind() == other ? calls.get(0) : calls.get(1);
        StringBuilder outcome = new StringBuilder("111");
        outcome.setCharAt(ofOther.keys().indexOf("lock-1"), '0');
        ofOther.reply().complete(outcome.toString());
        assertEquals(HoldEnd.LOST, theirs.end.getNow(null));
        assertFalse(mine.end.isDone(), "the other kind's loss is not this kind's");
        assertSame(mine, holds.get(KIND, "lock-1", OWNER));
    }

    /** A second kind of lock; the renewer only reads its identity. */
    private static final class OtherKind implements LockKind {
        @Override
        public String channel(String name) {
            return "other:{" + name + "}";
        }

        @Override
        public String holdField(LockOwner owner) {
            return owner.field() + ":other";
        }

        @Override
        public CompletableFuture<Long> acquire(RedisCommands redis, String name, LockOwner owner, long leaseMillis,
                int targetCount) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Long> release(RedisCommands redis, String name, LockOwner owner, String requestId,
                long leaseMillis, long latchMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> rollback(RedisCommands redis, String name, LockOwner owner,
                int targetCount, long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
                long leaseMillis) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> forceRelease(RedisCommands redis, String name) {
            throw new UnsupportedOperationException();
        }
    }
}
