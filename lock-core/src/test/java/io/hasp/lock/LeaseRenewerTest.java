package io.hasp.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The watchdog's batching, loss detection and unlock/renewal ordering, on a manual timer and clock. */
class LeaseRenewerTest {

    private static final long LEASE = 30_000;

    private final ManualTimer timer = new ManualTimer();
    private final HoldRegistry holds = new HoldRegistry();
    private final List<Call> calls = new ArrayList<>();
    private final LeaseRenewer renewer = new LeaseRenewer(holds, timer, timer::nanoTime, LEASE, 100,
            (keys, owners, lease) -> {
                Call call = new Call(List.copyOf(keys), List.copyOf(owners), lease);
                calls.add(call);
                return call.reply;
            });

    private record Call(List<String> keys, List<String> owners, long lease, CompletableFuture<String> reply) {
        Call(List<String> keys, List<String> owners, long lease) {
            this(keys, owners, lease, new CompletableFuture<>());
        }

        void answer(char each) {
            reply.complete(String.valueOf(each).repeat(keys.size()));
        }
    }

    private Hold watchdogHold(String name) {
        return holds.acquired(name, "client:1", 1, LEASE, true, timer.nanoTime());
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
        assertTrue(calls.stream().allMatch(c -> c.lease() == LEASE && c.owners().stream().allMatch("client:1"::equals)));
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
        Hold fixed = holds.acquired("fixed", "client:1", 1, 5_000, false, timer.nanoTime());
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
        assertSame(second, holds.get("lock", "client:1"));
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
        Hold fresh = holds.acquired("lock", "client:1", 2, LEASE, true, timer.nanoTime());
        assertFalse(fresh == old);
        assertEquals(HoldEnd.LOST, old.end.getNow(null));
        renewer.renewNow();
        assertEquals(List.of("lock"), calls.get(0).keys(), "the new hold is renewed");
    }
}
