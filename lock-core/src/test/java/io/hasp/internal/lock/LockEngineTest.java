package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisClosedException;
import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lock engine (acquisition, unlock, hand-over, watchdog) without a server: {@link MemoryKind} answers
 * as the scripts do, {@link MemoryPubSub} carries the unlock messages and {@link ManualTimer} is the clock,
 * so every step happens on the test's thread, in the order the test sets. The same behaviours against a
 * real server are in the integration suites; these pin the engine's own decisions and races.
 */
class LockEngineTest {

    private static final long LEASE = 30_000;
    private static final long WATCHDOG = -1;
    private static final String NAME = "engine";

    /** No server: every command fails, as a latch sweep's DEL may (it is best effort). */
    static final RedisCommands NO_SERVER = (RedisCommands) Proxy.newProxyInstance(
            LockEngineTest.class.getClassLoader(), new Class<?>[] {RedisCommands.class},
            (proxy, method, args) -> CompletableFuture.failedFuture(new IllegalStateException("no server in this test")));

    private final ManualTimer timer = new ManualTimer();
    private final MemoryPubSub pubSub = new MemoryPubSub();
    private final MemoryKind kind = new MemoryKind(timer::nanoTime, pubSub);
    private final PartsTopology hereTopology = new PartsTopology(NO_SERVER, pubSub);
    private LockService here;
    private LockService elsewhere;

    @BeforeEach
    void services() {
        here = service("here", hereTopology);
        elsewhere = service("elsewhere", new PartsTopology(NO_SERVER, pubSub));
    }

    private LockService service(String clientId, PartsTopology topology) {
        return new LockService(clientId, topology, timer, Duration.ofSeconds(30), Duration.ofMillis(10),
                Duration.ofSeconds(3), timer::nanoTime);
    }

    @AfterEach
    void close() {
        here.close();
        elsewhere.close();
    }

    private static Throwable failure(CompletableFuture<?> future) {
        assertTrue(future.isCompletedExceptionally(), "expected a failure, got " + future);
        try {
            future.join();
            throw new AssertionError("not failed");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    @Test
    void anAcquisitionBySameOwnerIsSentOnlyOnceItsUnlockInFlightHasItsAnswer() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        kind.holdReplies();
        CompletableFuture<Void> unlock = here.release(kind, NAME, owner);   // freed in the kind, its answer held
        CompletableFuture<Boolean> again = here.tryAcquire(kind, NAME, owner, LEASE, TimeUnit.SECONDS.toNanos(10));
        assertEquals(List.of("acquire engine", "release engine"), kind.calls(), "the acquisition waits");
        kind.deliverHeldReplies();
        assertNull(unlock.join());
        assertTrue(again.join());
        assertEquals(1, kind.count(NAME, owner), "taken afresh: one hold, not a re-entry's two");
    }

    @Test
    void anAcquisitionOfAnotherModeOfTheLockWaitsForTheSameOwnersUnlock() {
        MemoryKind otherMode = new MemoryKind(timer::nanoTime, pubSub, kind);
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        kind.holdReplies();
        CompletableFuture<Void> unlock = here.release(kind, NAME, owner);
        CompletableFuture<Boolean> other = here.tryAcquire(otherMode, NAME, owner, LEASE, TimeUnit.SECONDS.toNanos(10));
        CompletableFuture<Boolean> elsewhere = here.tryAcquire(otherMode, "another", owner, LEASE, TimeUnit.SECONDS.toNanos(10));
        assertEquals(List.of("acquire another"), otherMode.calls(), "only the acquisition of another lock went out");
        kind.deliverHeldReplies();
        assertNull(unlock.join());
        assertTrue(other.join());
        assertTrue(elsewhere.join());
        assertEquals(List.of("acquire another", "acquire engine"), otherMode.calls());
    }

    @Test
    void aFreeLockIsAcquiredAndReleasedAndItsHoldEnds() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        CompletableFuture<HoldEnd> end = here.holdEnd(kind, NAME, owner);
        assertEquals(1, kind.count(NAME, owner));
        here.release(kind, NAME, owner).join();
        assertEquals(0, kind.count(NAME, owner));
        assertEquals(HoldEnd.RELEASED, end.join());
        assertEquals(0, here.heldLocks());
    }

    @Test
    void aReentrantHoldIsGivenBackOneAtATime() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        assertEquals(2, kind.count(NAME, owner));
        here.release(kind, NAME, owner).join();
        assertEquals(1, kind.count(NAME, owner), "still held");
        assertEquals(1, here.heldLocks());
        here.release(kind, NAME, owner).join();
        assertEquals(0, here.heldLocks());
    }

    @Test
    void anUnlockByANonHolderFailsWithIllegalMonitorState() {
        assertTrue(elsewhere.tryAcquire(kind, NAME, elsewhere.owner(1), LEASE, 0).join());
        CompletableFuture<Void> unlock = here.release(kind, NAME, here.owner(1));
        assertInstanceOf(IllegalMonitorStateException.class, failure(unlock));
        assertEquals(1, kind.count(NAME, elsewhere.owner(1)), "the holder keeps it");
    }

    @Test
    void anUnlockAfterTheLeaseRanOutTellsTheHoldWasLost() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, 100, 0).join());
        timer.advance(150, TimeUnit.MILLISECONDS);
        Throwable lost = failure(here.release(kind, NAME, owner));
        assertInstanceOf(HoldLostException.class, lost);
        assertEquals(HoldEnd.EXPIRED, ((HoldLostException) lost).holdEnd());
    }

    @Test
    void aWaiterOfAnotherClientIsWokenByTheUnlockMessageNotByItsTimer() {
        LockOwner holder = elsewhere.owner(1);
        LockOwner waiter = here.owner(2);
        assertTrue(elsewhere.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        CompletableFuture<Boolean> waiting = here.tryAcquire(kind, NAME, waiter, 10_000_000_000L, 10_000_000_000L);
        assertFalse(waiting.isDone(), "parked behind the holder");
        assertEquals(1, pubSub.listeners(kind.channel(NAME)));
        elsewhere.release(kind, NAME, holder).join();
        assertTrue(waiting.isDone(), "woken by the message, with no time passing");
        assertTrue(waiting.join());
        assertEquals(1, kind.count(NAME, waiter));
    }

    @Test
    void aParkedWaiterOfTheSameClientIsHandedTheLockInTheUnlockItself() {
        LockOwner holder = here.owner(1);
        LockOwner waiter = here.owner(2);
        assertTrue(here.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        CompletableFuture<Boolean> waiting = here.tryAcquire(kind, NAME, waiter, LEASE, 10_000_000_000L);
        assertFalse(waiting.isDone());
        here.release(kind, NAME, holder).join();
        assertTrue(waiting.join());
        assertEquals(1, kind.count(NAME, waiter));
        List<String> calls = kind.calls();
        assertEquals("releaseTo " + NAME, calls.get(calls.size() - 1), "one script: released and handed over");
        assertEquals(1, here.heldLocks(kind));
    }

    @Test
    void theDeadlinePassingGivesFalseAndLeavesNoWaiterBehind() {
        assertTrue(elsewhere.tryAcquire(kind, NAME, elsewhere.owner(1), LEASE, 0).join());
        CompletableFuture<Boolean> waiting = here.tryAcquire(kind, NAME, here.owner(1), LEASE,
                TimeUnit.MILLISECONDS.toNanos(200));
        timer.advance(199, TimeUnit.MILLISECONDS);
        assertFalse(waiting.isDone());
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertFalse(waiting.join());
        timer.advance(LockContext.LINGER_MILLIS, TimeUnit.MILLISECONDS);
        assertNull(here.waiters().channel(kind.channel(NAME)), "its subscription lingers, then goes");
        assertEquals(0, pubSub.listeners(kind.channel(NAME)));
    }

    @Test
    void theWatchdogRenewsAHeldLockAndStopsAtItsUnlock() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, WATCHDOG, 0).join());
        timer.advance(25, TimeUnit.SECONDS);
        assertEquals(1, kind.count(NAME, owner), "renewed past its first 30 s lease");
        long renewals = here.renewalCalls();
        assertTrue(renewals >= 2, "renewed every third of the lease: " + renewals);
        here.release(kind, NAME, owner).join();
        timer.advance(60, TimeUnit.SECONDS);
        assertEquals(renewals, here.renewalCalls(), "no renewal after the unlock");
    }

    @Test
    void aHoldTheWatchdogFindsGoneEndsAsLost() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, WATCHDOG, 0).join());
        CompletableFuture<HoldEnd> end = here.holdEnd(kind, NAME, owner);
        kind.forget(NAME);
        timer.advance(11, TimeUnit.SECONDS);
        assertEquals(HoldEnd.LOST, end.join());
    }

    @Test
    void aMasterChangeChecksEveryHoldAtOnce() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, WATCHDOG, 0).join());
        LockOwner kept = here.owner(2);
        assertTrue(here.tryAcquire(kind, "kept", kept, WATCHDOG, 0).join());
        CompletableFuture<HoldEnd> end = here.holdEnd(kind, NAME, owner);
        kind.forget(NAME);   // the new master never had this grant
        hereTopology.mastersMoved("the test's master switch");
        assertEquals(HoldEnd.LOST, end.getNow(null), "found gone at once, no timer tick in between");
        assertFalse(here.holdEnd(kind, "kept", kept).isDone(), "a hold the new master has is kept");
        assertEquals(1, here.heldLocks(kind));
        CompletionException unlock = assertThrows(CompletionException.class, () -> here.release(kind, NAME, owner).join());
        HoldLostException lost = assertInstanceOf(HoldLostException.class, unlock.getCause());
        assertTrue(lost.getMessage().contains("the watchdog found it gone after the test's master switch"), lost.getMessage());
    }

    @Test
    void anUnlockThatWaitedForTheCheckAfterAMasterSwitchReportsWhatTheCheckFound() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, WATCHDOG, 0).join());
        kind.forget(NAME);   // the new master never had this grant
        kind.holdReplies();
        hereTopology.mastersMoved("the test's master switch");   // the check's answer is on its way
        CompletableFuture<Void> unlock = here.release(kind, NAME, owner);   // waits for that answer, then finds nothing
        for (int round = 0; round < 3 && !unlock.isDone(); round++) {
            kind.deliverHeldReplies();
        }
        HoldLostException lost = assertInstanceOf(HoldLostException.class, failure(unlock));
        assertEquals(HoldEnd.LOST, lost.holdEnd());
        assertTrue(lost.getMessage().contains("the watchdog found it gone after the test's master switch"),
                lost.getMessage());
    }

    @Test
    void anUnlockThatFindsAHoldWithALeaseGoneAfterAMasterSwitchNamesTheSwitch() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());   // a lease: the watchdog never checks it
        kind.forget(NAME);
        timer.advance(1, TimeUnit.MILLISECONDS);
        hereTopology.mastersMoved("the test's master switch");
        CompletionException unlock = assertThrows(CompletionException.class, () -> here.release(kind, NAME, owner).join());
        HoldLostException lost = assertInstanceOf(HoldLostException.class, unlock.getCause());
        assertEquals(HoldEnd.LOST, lost.holdEnd());
        assertTrue(lost.getMessage().contains("the masters changed since it was granted: the test's master switch"),
                lost.getMessage());
        assertEquals(IllegalMonitorStateException.class, failure(here.release(kind, NAME, owner)).getClass(),
                "reported once");
    }

    @Test
    void anUnlockWhoseReplyIsLostIsResentWithTheSameRequestAndAnswersOnce() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        kind.failNext(1, new RedisConnectionException("reply lost"));
        CompletableFuture<Void> unlock = here.release(kind, NAME, owner);
        assertFalse(unlock.isDone(), "the first send took effect, but its reply was lost");
        timer.advance(5, TimeUnit.MILLISECONDS);
        unlock.join();
        assertEquals(List.of("release " + NAME, "release " + NAME),
                kind.calls().subList(kind.calls().size() - 2, kind.calls().size()));
    }

    @Test
    void theLatchOfAnUnlockSentOnceIsDeletedAndThatOfAnUnlockSentAgainIsLeftToExpire() {
        List<String> deleted = new CopyOnWriteArrayList<>();
        RedisCommands deletes = (RedisCommands) Proxy.newProxyInstance(LockEngineTest.class.getClassLoader(),
                new Class<?>[] {RedisCommands.class}, (proxy, method, args) -> {
                    if (method.getName().equals("del")) {
                        deleted.addAll(List.of((String[]) args[0]));
                        return CompletableFuture.completedFuture((long) ((String[]) args[0]).length);
                    }
                    return CompletableFuture.failedFuture(new IllegalStateException("no server in this test"));
                });
        LockService sweeping = service("sweeping", new PartsTopology(deletes, pubSub));
        try {
            LockOwner owner = sweeping.owner(1);
            assertTrue(sweeping.tryAcquire(kind, NAME, owner, LEASE, 0).join());
            sweeping.release(kind, NAME, owner).join();
            timer.advance(LatchSweeper.DELAY_MILLIS, TimeUnit.MILLISECONDS);
            assertEquals(1, deleted.size(), "the latch of an unlock answered on its one send: " + deleted);
            assertTrue(deleted.get(0).startsWith(kind.unlockLatchPrefix(NAME)), deleted.get(0));

            assertTrue(sweeping.tryAcquire(kind, NAME, owner, LEASE, 0).join());
            kind.failNext(1, new RedisConnectionException("reply lost"));
            CompletableFuture<Void> unlock = sweeping.release(kind, NAME, owner);
            timer.advance(5, TimeUnit.MILLISECONDS);
            unlock.join();
            timer.advance(LatchSweeper.DELAY_MILLIS, TimeUnit.MILLISECONDS);
            assertEquals(1, deleted.size(), "a latch its first send may still reach is kept: " + deleted);
        } finally {
            sweeping.close();
        }
    }

    @Test
    void anAcquisitionCancelledWhileItsReplyIsOnTheWayGivesTheLockBack() {
        LockOwner owner = here.owner(1);
        kind.holdReplies();
        CompletableFuture<Boolean> acquiring = here.tryAcquire(kind, NAME, owner, LEASE, 10_000_000_000L);
        assertEquals(1, kind.count(NAME, owner), "the acquire took effect; its reply has not arrived");
        acquiring.cancel(false);
        kind.deliverHeldReplies();
        assertEquals(0, kind.count(NAME, owner), "given back once the reply came");
        assertEquals(0, here.heldLocks());
    }

    @Test
    void anAcquireFailingWithANonRetryableErrorIsRolledBack() {
        LockOwner owner = here.owner(1);
        kind.failNext(1, new RedisServerException("ERR something the server refused"));
        CompletableFuture<Boolean> acquiring = here.tryAcquire(kind, NAME, owner, LEASE, 10_000_000_000L);
        assertInstanceOf(RedisServerException.class, failure(acquiring));
        assertEquals(0, kind.count(NAME, owner), "an outcome it could not know is undone");
        assertTrue(kind.calls().contains("rollback " + NAME));
    }

    @Test
    void theSameOwnersNextAcquisitionWaitsForTheRollbackOfItsAbandonedAcquire() {
        LockOwner owner = here.owner(1);
        kind.failNext(1, new RedisConnectionException("reply lost"));
        CompletableFuture<Boolean> abandoned = here.tryAcquire(kind, NAME, owner, LEASE, 10_000_000_000L);
        assertFalse(abandoned.isDone(), "backing off, its outcome unknown");
        kind.holdReplies();   // the rollback's reply, and so its place in Redis, is on its way
        abandoned.cancel(false);
        assertEquals("rollback " + NAME, kind.calls().get(kind.calls().size() - 1));
        CompletableFuture<Boolean> next = here.tryAcquire(kind, NAME, owner, LEASE, 10_000_000_000L);
        assertEquals("rollback " + NAME, kind.calls().get(kind.calls().size() - 1),
                "no acquire may overtake the rollback: landing first, it would be undone by it");
        assertFalse(next.isDone());
        kind.deliverHeldReplies();
        assertTrue(next.join());
        assertEquals("acquire " + NAME, kind.calls().get(kind.calls().size() - 1));
        assertEquals(1, kind.count(NAME, owner));
        here.release(kind, NAME, owner).join();
    }

    @Test
    void theOwnersUnlockWaitsForTheRollbackOfItsAbandonedReentry() {
        LockOwner owner = here.owner(1);
        assertTrue(here.tryAcquire(kind, NAME, owner, LEASE, 0).join());
        kind.failNext(1, new RedisConnectionException("reply lost"));
        CompletableFuture<Boolean> reentry = here.tryAcquire(kind, NAME, owner, LEASE, 10_000_000_000L);
        assertFalse(reentry.isDone(), "backing off, its outcome unknown");
        kind.holdReplies();   // the rollback of the re-entry is on its way
        reentry.cancel(false);
        assertEquals("rollback " + NAME, kind.calls().get(kind.calls().size() - 1));
        CompletableFuture<Void> unlock = here.release(kind, NAME, owner);
        assertEquals("rollback " + NAME, kind.calls().get(kind.calls().size() - 1),
                "no unlock may overtake the rollback: landing first, the rollback would find a count it does not expect");
        kind.deliverHeldReplies();
        unlock.join();
        assertEquals(0, kind.count(NAME, owner), "one hold taken, one given back: nothing left in Redis");
        assertEquals(0, here.heldLocks());
    }

    @Test
    void anAcquireFailingWithALinkErrorIsRetriedWithinItsWaitAndCountsTheHoldOnce() {
        LockOwner owner = here.owner(1);
        kind.failNext(2, new RedisConnectionException("link cut"));
        CompletableFuture<Boolean> acquiring = here.tryAcquire(kind, NAME, owner, LEASE, 10_000_000_000L);
        assertFalse(acquiring.isDone());
        timer.advance(100, TimeUnit.MILLISECONDS);
        assertTrue(acquiring.join());
        assertEquals(1, kind.count(NAME, owner), "three sends, one hold");
        here.release(kind, NAME, owner).join();
        assertEquals(0, kind.count(NAME, owner));
    }

    @Test
    void handOversGoToTheLongestParkedWaiterFirst() {
        LockOwner holder = here.owner(1);
        LockOwner first = here.owner(2);
        LockOwner second = here.owner(3);
        assertTrue(here.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        CompletableFuture<Boolean> firstWaiting = here.tryAcquire(kind, NAME, first, LEASE, 10_000_000_000L);
        CompletableFuture<Boolean> secondWaiting = here.tryAcquire(kind, NAME, second, LEASE, 10_000_000_000L);
        here.release(kind, NAME, holder).join();
        assertTrue(firstWaiting.join());
        assertFalse(secondWaiting.isDone());
        here.release(kind, NAME, first).join();
        assertTrue(secondWaiting.join());
        assertEquals(1, kind.count(NAME, second));
    }

    @Test
    void aBlockedCallerInterruptedWhileParkedLeavesNoWaiterAndNoHold() throws InterruptedException {
        LockOwner holder = elsewhere.owner(1);
        assertTrue(elsewhere.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        KindLock lock = new KindLock(here, kind, NAME);
        Throwable[] thrown = new Throwable[1];
        Thread caller = new Thread(() -> {
            try {
                lock.lockInterruptibly();
            } catch (Throwable t) {
                thrown[0] = t;
            }
        }, "blocked-caller");
        caller.start();
        try {
            ServerView.await("the caller parked", Duration.ofSeconds(10), () -> {
                WaitChannel channel = here.waiters().channel(kind.channel(NAME));
                return channel != null && channel.waiters() == 1;
            });
            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(10));
        } finally {
            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(10));
        }
        assertFalse(caller.isAlive());
        assertInstanceOf(InterruptedException.class, thrown[0]);
        assertEquals(0, here.waiters().channel(kind.channel(NAME)).waiters(), "no waiter left behind");
        elsewhere.release(kind, NAME, holder).join();
        assertEquals(0, here.heldLocks(), "the message after the interrupt acquires nothing");
    }

    @Test
    void anAcquisitionMovesOneStepAtATimeAsItsCallbacksArrive() {
        LockOwner holder = elsewhere.owner(1);
        LockOwner waiter = here.owner(2);
        assertTrue(elsewhere.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        kind.holdReplies();
        pubSub.holdConfirmations();
        Acquisition acquisition = new Acquisition(here.context(), kind, NAME, waiter, LEASE, 10_000_000_000L);
        CompletableFuture<Boolean> result = acquisition.start();
        assertEquals(AcquisitionStep.SENDING, acquisition.step(), "the first acquire is on its way");
        kind.deliverHeldReplies();
        assertEquals(AcquisitionStep.JOINING, acquisition.step(), "held: it subscribes before looking again");
        kind.holdReplies();
        pubSub.confirmHeld();
        assertEquals(AcquisitionStep.SENDING, acquisition.step(), "subscribed: it looks again");
        kind.deliverHeldReplies();
        assertEquals(AcquisitionStep.PARKED, acquisition.step(), "still held: it parks");
        assertFalse(result.isDone());
        elsewhere.release(kind, NAME, holder).join();
        assertTrue(result.join(), "the unlock message woke it and its next acquire took the lock");
        assertEquals(1, kind.count(NAME, waiter));
        assertEquals(List.of("acquire " + NAME, "acquire " + NAME, "release " + NAME, "acquire " + NAME),
                kind.calls().subList(kind.calls().size() - 4, kind.calls().size()));
    }

    @Test
    void anAcquireWhoseLinkFailedBacksOffThenSendsAgain() {
        LockOwner owner = here.owner(1);
        kind.failNext(1, new RedisConnectionException("link cut"));
        Acquisition acquisition = new Acquisition(here.context(), kind, NAME, owner, LEASE, 10_000_000_000L);
        CompletableFuture<Boolean> result = acquisition.start();
        assertEquals(AcquisitionStep.BACKING_OFF, acquisition.step());
        timer.advance(4, TimeUnit.MILLISECONDS);
        assertFalse(result.isDone(), "the first retry waits 5 ms");
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertTrue(result.join());
        assertEquals(1, kind.count(NAME, owner), "two sends, one hold");
    }

    @Test
    void anAcquisitionCancelledWhileParkedLeavesItsChannelAndIsNotWokenAgain() {
        LockOwner holder = elsewhere.owner(1);
        assertTrue(elsewhere.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        Acquisition acquisition = new Acquisition(here.context(), kind, NAME, here.owner(2), LEASE, -1);
        CompletableFuture<Boolean> result = acquisition.start();
        assertEquals(AcquisitionStep.PARKED, acquisition.step());
        WaitChannel channel = here.waiters().channel(kind.channel(NAME));
        assertEquals(1, channel.parked());
        result.cancel(false);
        assertEquals(0, channel.parked(), "its wake is out of the queue");
        assertEquals(0, channel.waiters(), "and it left the channel");
        int calls = kind.calls().size();
        elsewhere.release(kind, NAME, holder).join();
        assertEquals(calls + 1, kind.calls().size(), "only the holder's release: no acquire after the cancel");
        assertEquals(0, here.heldLocks());
    }

    @Test
    void aLockAsyncFutureTheCallerEndsStopsItsWaitAndTakesNothingLater() {
        LockOwner holder = elsewhere.owner(1);
        LockOwner waiter = here.owner(2);
        assertTrue(elsewhere.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        CompletableFuture<Void> locking = new KindLock(here, kind, NAME).lockAsync(waiter);
        assertEquals(1, here.waiters().channel(kind.channel(NAME)).waiters());
        locking.completeExceptionally(new TimeoutException("the caller's own timeout"));
        assertEquals(0, here.waiters().channel(kind.channel(NAME)).waiters(), "the acquisition stopped waiting");
        elsewhere.release(kind, NAME, holder).join();
        assertEquals(0, kind.count(NAME, waiter), "no acquisition runs on after the caller gave up");
        assertEquals(0, here.heldLocks());
    }

    @Test
    void aLockGrantedAsTheCallerEndsLockAsyncsFutureIsGivenBack() {
        LockOwner owner = here.owner(1);
        kind.holdReplies();
        CompletableFuture<Void> locking = new KindLock(here, kind, NAME).lockAsync(owner);
        assertEquals(1, kind.count(NAME, owner), "the acquire took effect; its reply has not arrived");
        locking.completeExceptionally(new TimeoutException("the caller's own timeout"));
        kind.deliverHeldReplies();
        assertEquals(0, kind.count(NAME, owner), "given back: nobody would ever unlock it");
        assertEquals(0, here.heldLocks());
    }

    @Test
    void onceTheTimerStoppedEveryOperationWaitingOnItOrOnAMessageEndsAsClosed() {
        LockOwner holder = elsewhere.owner(1);
        assertTrue(elsewhere.tryAcquire(kind, NAME, holder, LEASE, 0).join());
        CompletableFuture<Boolean> parked = here.tryAcquire(kind, NAME, here.owner(1), LEASE, -1);
        kind.failNext(1, new RedisConnectionException("link cut"));
        CompletableFuture<Boolean> backingOff = here.tryAcquire(kind, "other", here.owner(2), LEASE, -1);
        LockOwner unlocker = here.owner(3);
        assertTrue(here.tryAcquire(kind, "third", unlocker, LEASE, 0).join());
        kind.failNext(1, new RedisConnectionException("reply lost"));
        CompletableFuture<Void> resending = here.release(kind, "third", unlocker);
        assertFalse(parked.isDone() || backingOff.isDone() || resending.isDone());

        here.endStranded();  // what HaspClient.close() does once its timer stopped

        assertInstanceOf(RedisClosedException.class, failure(parked));
        assertInstanceOf(RedisClosedException.class, failure(backingOff));
        assertInstanceOf(RedisClosedException.class, failure(resending));
        assertEquals(0, here.waiters().channel(kind.channel(NAME)).waiters(), "the parked one left its channel");
        CompletableFuture<Boolean> late = here.tryAcquire(kind, NAME, here.owner(4), LEASE, -1);
        assertInstanceOf(RedisClosedException.class, failure(late), "one that would wait now fails at once");
    }
}
