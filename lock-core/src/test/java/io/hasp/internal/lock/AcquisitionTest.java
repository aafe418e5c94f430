package io.hasp.internal.lock;

import static io.hasp.internal.lock.ServerView.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisException;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.Futures;
import io.hasp.internal.lock.ServerView.ScriptCall;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.HoldEnd;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The acquisition and unlock algorithms against a real redis-server, reached through a
 * {@link TcpProxy} that loses, delays or holds back replies. Every deadline below is an upper
 * bound with generous slack for loaded machines, never a timing being measured.
 */
class AcquisitionTest extends ProxiedLockTest {

    private static final String NAME = "orders";
    private static final String CHANNEL = "redisson_lock__channel:{orders}";
    private int connections;

    AcquisitionTest(RedisServer server) {
        super(server, NAME);
    }

    @BeforeEach
    void countConnections() {
        connections = proxy.connectionCount();
    }

    /** A lock service with its commands on {@code commands} and its subscriptions on {@code pubSub}. */
    private static LockService service(HaspClient commands, HaspClient pubSub, Duration watchdog) {
        return ProxiedServer.service("me", commands, pubSub, watchdog);
    }

    /** A client of the proxy whose commands time out after 300 ms (so an unlock's retry budget is about 0.6 s). */
    private HaspClient impatientClient() {
        return HaspClient.create(HaspConfig.builder().uri(proxy.uri()).commandTimeout(Duration.ofMillis(300)).build());
    }

    /** Cuts every connection through the proxy and refuses new ones until {@code rejectNewConnections(false)}. */
    private void cutOff() {
        proxy.rejectNewConnections(true);
        proxy.cutAll();
    }

    private void awaitSubscribers(long count) {
        await("subscribers of " + CHANNEL + " == " + count, SLACK, () -> view.subscribers(CHANNEL) == count);
    }

    private String nextMessage() throws InterruptedException {
        String message = messages.poll(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertTrue(message != null, "an unlock message was published");
        return message;
    }

    @Test
    void reentrantAcquisitionsCountUpAndUnlocksDown() throws Exception {
        assertTrue(get(lock.tryLockAsync(a)));
        assertTrue(get(lock.tryLockAsync(Duration.ZERO, Duration.ofSeconds(50), a)));
        assertEquals(2L, view.count(NAME, "me:1"));
        get(lock.unlockAsync(a));
        assertEquals(1L, view.count(NAME, "me:1"));
        get(lock.unlockAsync(a));
        assertFalse(view.exists(NAME));
        assertEquals("0", nextMessage());
        assertEquals(List.of(), List.copyOf(messages), "one message, when the count reached zero");
    }

    @Test
    void aWaiterSubscribesThenIsWokenByTheUnlockMessage() throws Exception {
        view.holdAs(NAME, "other:1", 60_000);
        // The wait (20 s) ends before the holder's ttl (60 s): only the message can let it in.
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(20, -1, TimeUnit.SECONDS, a);
        awaitSubscribers(2);  // the observer and the waiter
        assertFalse(waiting.isDone());
        view.delete(NAME);
        view.publish(CHANNEL, "0");
        assertTrue(get(waiting));
        assertEquals(1L, view.count(NAME, "me:1"));
        awaitSubscribers(1);  // the waiter's subscription went away after the linger
        assertNull(service.waiters().channel(CHANNEL));
    }

    @Test
    void aLostUnlockMessageCostsAtMostTheHoldersTtl() throws Exception {
        // The holder's key expires on its own: no unlock message is ever published.
        view.holdAs(NAME, "other:1", 1_500);
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, a);
        assertTrue(get(waiting), "looked again when the holder's ttl ran out");
        assertEquals(1L, view.count(NAME, "me:1"));
        assertTrue(messages.isEmpty());
    }

    @Test
    void tryLockReturnsFalseAtTheDeadlineAndLeavesNoWaiterBehind() throws Exception {
        view.holdAs(NAME, "other:1", 120_000);
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(500, -1, TimeUnit.MILLISECONDS, a);
        assertEquals(false, get(waiting));
        // the waiter leaves its channel on the timer thread, a moment after the result completed
        await("the waiter left its channel", SLACK, () -> {
            WaitChannel channel = service.waiters().channel(CHANNEL);
            return channel == null || channel.waiters() == 0;
        });
        awaitSubscribers(1);  // only the observer is left once the linger passed
        assertNull(service.waiters().channel(CHANNEL));
        assertEquals("1", view.call("HGET", NAME, "other:1"));
    }

    @Test
    void aZeroWaitMakesExactlyOneAttempt() throws Exception {
        view.holdAs(NAME, "other:1", 120_000);
        long subscribes = view.commandCalls("subscribe");
        assertFalse(get(lock.tryLockAsync(a)));
        assertEquals(1, view.scriptCalls(AcquireScript.SCRIPT, NAME).size());
        assertEquals(subscribes, view.commandCalls("subscribe"));
        assertNull(service.waiters().channel(CHANNEL));
    }

    @Test
    void anAcquireWhoseReplyWasLostIsRetriedWithoutCountingTwice() throws Exception {
        proxy.dropNextReplyAndCut();
        assertTrue(get(lock.tryLockAsync(10, -1, TimeUnit.SECONDS, a)));
        assertEquals(1L, view.count(NAME, "me:1"));
        assertTrue(view.scriptCalls(AcquireScript.SCRIPT, NAME).size() >= 2, "the acquire was sent again");

        settle();
        proxy.dropNextReplyAndCut();
        assertTrue(get(lock.tryLockAsync(10, -1, TimeUnit.SECONDS, a)));
        assertEquals(2L, view.count(NAME, "me:1"));
        assertTrue(view.scriptCalls(AcquireScript.SCRIPT, NAME).size() >= 4, "the re-entry was sent again");
        assertEquals(2, lock.getHoldCountAsync(a).get(30, TimeUnit.SECONDS));
    }

    @Test
    void anAcquireWithUnknownOutcomeAtTheDeadlineIsRolledBack() throws Exception {
        try (HaspClient impatient = impatientClient();
                LockService hurried = service(impatient, impatient, WATCHDOG)) {
            impatient.commands().ping().get(30, TimeUnit.SECONDS);
            // Every acquire runs on the server, but its reply comes after the command timed out.
            proxy.delay(Duration.ofSeconds(5));
            CompletableFuture<Boolean> attempt = Locks.reentrant(hurried, NAME).tryLockAsync(1, -1, TimeUnit.SECONDS, a);
            assertEquals(false, get(attempt));
            await("an acquire ran on the server", SLACK,
                    () -> !view.scriptCalls(AcquireScript.SCRIPT, NAME).isEmpty());
            // Far sooner than the 2 min lease: the hold the lost reply had granted was given back.
            await("the lock given back", SLACK, () -> !view.exists(NAME));
            assertFalse(view.scriptCalls(RollbackScript.SCRIPT, NAME).isEmpty());
            proxy.delay(Duration.ZERO);
            assertEquals(0, hurried.heldLocks());
        }
    }

    @Test
    void anUnlockWhoseReplyWasLostIsRetriedWithTheSameLatch() throws Exception {
        get(lock.lockAsync(a));
        get(lock.lockAsync(a));
        proxy.dropNextReplyAndCut();
        assertNull(get(lock.unlockAsync(a)));
        assertEquals(1L, view.count(NAME, "me:1"), "one hold given back, not two");
        settle();
        proxy.dropNextReplyAndCut();
        assertNull(get(lock.unlockAsync(a)));
        assertFalse(view.exists(NAME));

        List<ScriptCall> unlocks = view.scriptCalls(UnlockScript.SCRIPT, NAME);
        assertTrue(unlocks.size() >= 4, "both unlocks were sent again: " + unlocks);
        List<String> latches = unlocks.stream().map(c -> c.keys().get(2)).distinct().toList();
        assertEquals(2, latches.size(), "one latch per unlock, reused by its retry: " + latches);
        for (String latch : latches) {
            // kept for its life, not swept: the lost first send may still be on its way on the cut connection
            assertTrue(view.exists(latch), "the latch of an unlock sent again is kept: " + latch);
        }
    }

    @Test
    void anAcquisitionStartedWhileTheSameOwnersUnlockIsInFlightBeginsAfterItsAnswer() throws Exception {
        for (int round = 0; round < 20; round++) {
            get(lock.lockAsync(a));
            CompletableFuture<Void> unlock = lock.unlockAsync(a);   // not waited for
            CompletableFuture<Void> again = lock.lockAsync(a);
            assertNull(get(unlock));
            assertNull(get(again), "the lock taken again after its unlock, not failed as a lost re-entry");
            assertEquals(1L, view.count(NAME, "me:1"), "round " + round);
            assertEquals(1, lock.getHoldCountAsync(a).get(30, TimeUnit.SECONDS));
            get(lock.unlockAsync(a));
            assertFalse(view.exists(NAME));
        }
        // A re-entrant hold: the unlock in flight takes one level, the acquisition adds it back.
        get(lock.lockAsync(a));
        get(lock.lockAsync(a));
        CompletableFuture<Void> unlock = lock.unlockAsync(a);
        CompletableFuture<Void> again = lock.lockAsync(a);
        assertNull(get(unlock));
        assertNull(get(again));
        assertEquals(2L, view.count(NAME, "me:1"));
        assertEquals(2, lock.getHoldCountAsync(a).get(30, TimeUnit.SECONDS));
        get(lock.unlockAsync(a));
        get(lock.unlockAsync(a));
        assertFalse(view.exists(NAME));
    }

    @Test
    void anAcquisitionWaitsForTheSameOwnersUnlockWhoseReplyIsLost() throws Exception {
        get(lock.lockAsync(a));
        proxy.dropNextReplyAndCut();
        CompletableFuture<Void> unlock = lock.unlockAsync(a);   // applied; its reply lost, it is sent again
        CompletableFuture<Void> again = lock.lockAsync(a);
        assertNull(get(unlock));
        assertNull(get(again));
        assertEquals(1L, view.count(NAME, "me:1"), "held once, by the acquisition that followed the unlock");
        assertEquals(1, lock.getHoldCountAsync(a).get(30, TimeUnit.SECONDS));
        get(lock.unlockAsync(a));
        assertFalse(view.exists(NAME));
    }

    /**
     * Lets the traffic that follows a lost reply finish (the cut connection's reconnect), so that the next
     * reply the proxy drops is the one of the next command.
     */
    private void settle() throws Exception {
        await("the client reconnected", SLACK, () -> proxy.connectionCount() >= connections);
        for (int i = 0; i < 4; i++) {
            get(client.commands().ping());
        }
    }

    @Test
    void unlockByANonHolderFailsAndChangesNothing() throws Exception {
        get(lock.lockAsync(a));
        CompletableFuture<Void> wrong = lock.unlockAsync(b);
        Throwable error = assertThrows(Exception.class, () -> get(wrong));
        assertEquals(IllegalMonitorStateException.class, io.hasp.internal.Futures.unwrap(error).getClass());
        assertEquals(1L, view.count(NAME, "me:1"));
        assertEquals(WATCHDOG.toMillis(), view.pttl(NAME), 60_000);
    }

    @Test
    void cancellingAWaitingAcquisitionLeavesNothingBehind() throws Exception {
        view.holdAs(NAME, "other:1", 120_000);
        CompletableFuture<Void> waiting = lock.lockAsync(a);
        awaitSubscribers(2);
        await("one waiter", SLACK, () -> service.waiters().channel(CHANNEL).waiters() == 1);
        assertTrue(waiting.cancel(false));
        await("no waiter left", SLACK, () -> {
            WaitChannel channel = service.waiters().channel(CHANNEL);
            return channel == null || channel.waiters() == 0;
        });
        view.delete(NAME);
        view.publish(CHANNEL, "0");
        awaitSubscribers(1);
        assertFalse(view.exists(NAME), "the cancelled acquisition did not take the lock");
        assertEquals(0, service.heldLocks());
    }

    @Test
    void aLocalUnlockHandsTheLockToALocalWaiterWithoutTheMessage() throws Exception {
        // Commands go straight to the server; subscriptions through the proxy, which then stops.
        try (HaspClient direct = HaspClient.create(HaspConfig.builder().uri(server.uri()).poolSize(1).build());
                LockService local = service(direct, client, WATCHDOG)) {
            HaspLock shared = Locks.reentrant(local, NAME);
            get(shared.lockAsync(a));
            CompletableFuture<Boolean> waiting = shared.tryLockAsync(60, -1, TimeUnit.SECONDS, b);
            awaitSubscribers(2);
            await("the waiter tried again once subscribed", SLACK, () -> view.scriptCalls(AcquireScript.SCRIPT, NAME)
                    .stream().filter(c -> c.argv().contains("me:2")).count() >= 2);
            // One connection, replies in order: once this reply is in, the waiter has seen its own and parked.
            get(direct.commands().ping());
            proxy.blackhole(true);
            get(shared.unlockAsync(a));
            assertTrue(get(waiting), "handed over although the message could not arrive");
            assertEquals(1L, view.count(NAME, "me:2"));
            proxy.blackhole(false);
        }
    }

    @Test
    void waitersOfOneNameShareOneSubscription() throws Exception {
        view.holdAs(NAME, "other:1", 120_000);
        long subscribes = view.commandCalls("subscribe");
        List<CompletableFuture<Void>> waiting = List.of(lock.lockAsync(a), lock.lockAsync(b),
                lock.lockAsync(lock.owner(3)));
        await("three waiters", SLACK, () -> {
            WaitChannel channel = service.waiters().channel(CHANNEL);
            return channel != null && channel.waiters() == 3;
        });
        awaitSubscribers(2);
        // One subscription to this client's turn channel and one to the shared channel (the holder takes no turns),
        // for all three waiters.
        assertEquals(subscribes + 2, view.commandCalls("subscribe"));
        waiting.forEach(w -> w.cancel(false));
    }

    @Test
    void aWatchdogHoldIsRenewedAndItsLossSignalled() throws Exception {
        try (LockService watched = service(client, client, Duration.ofSeconds(3))) {
            HaspLock short3s = Locks.reentrant(watched, NAME);
            get(short3s.lockAsync(a));
            CompletableFuture<HoldEnd> end = short3s.holdEnd(a);
            await("four renewals", SLACK, () -> view.scriptCalls(RenewScript.SCRIPT, NAME).size() >= 4);
            // Four renewals, a third of the lease apart: the 3 s lease given at acquisition has passed.
            assertEquals(1L, view.count(NAME, "me:1"), "kept alive by the renewals");
            assertFalse(end.isDone());
            view.delete(NAME);
            assertEquals(HoldEnd.LOST, get(end));
            assertEquals(0, watched.heldLocks());
        }
    }

    @Test
    void aHoldWithALeaseIsNeverRenewed() throws Exception {
        try (LockService watched = service(client, client, Duration.ofSeconds(3))) {
            get(Locks.reentrant(watched, NAME).lockAsync(Duration.ofMillis(1_500), a));
            assertTrue(view.pttl(NAME) <= 1_500);
            await("the lease ran out", SLACK, () -> !view.exists(NAME));
            assertEquals(List.of(), view.scriptCalls(RenewScript.SCRIPT, NAME));
            assertEquals(0, watched.renewalCalls());
        }
    }

    @Test
    void lockKeepsTryingWhileRedisIsUnreachableButNeverSpins() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (HaspClient impatient = impatientClient();
                LockService counted = new LockService("me", new PartsTopology(SentCommands.counting(impatient.commands(),
                        AcquireScript.SCRIPT, attempts), ClientInternals.pubSub(impatient)), ClientInternals.timer(impatient), WATCHDOG,
                        impatient.config().timerTick(), impatient.config().commandTimeout())) {
            impatient.commands().ping().get(30, TimeUnit.SECONDS);
            cutOff();
            long started = System.nanoTime();
            CompletableFuture<Void> locking = Locks.reentrant(counted, NAME).lockAsync(a);
            await("five attempts while the server is unreachable", SLACK, () -> attempts.get() >= 5);
            long sent = attempts.get();
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertFalse(locking.isDone());
            assertTrue(sent <= 5 + elapsedMillis / 5, sent + " attempts in " + elapsedMillis + " ms: a backoff caps the rate");
            proxy.rejectNewConnections(false);
            get(locking);
            assertEquals(1L, view.count(NAME, "me:1"), "the hold counted once");
        }
    }

    @Test
    void anUnlockThatCannotBeConfirmedEndsTheHoldLostAndItsLeaseRunsOut() throws Exception {
        try (HaspClient impatient = impatientClient();
                LockService watched = service(impatient, impatient, Duration.ofSeconds(6))) {
            HaspLock mine = Locks.reentrant(watched, NAME);
            get(mine.lockAsync(a));
            CompletableFuture<HoldEnd> end = mine.holdEnd(a);
            cutOff();
            CompletableFuture<Void> unlock = mine.unlockAsync(a);   // never reaches the server
            Throwable error = assertThrows(Exception.class, () -> get(unlock));
            assertInstanceOf(RedisException.class, Futures.unwrap(error));
            // Ended with the unlock's failure (about 0.6 s in), long before the 6 s lease could have run out.
            assertEquals(HoldEnd.LOST, end.getNow(null));
            assertEquals(0, watched.heldLocks());
            proxy.rejectNewConnections(false);
            // Reachable again, nothing renews the hold its owner meant to give back: its lease runs out.
            await("the lease ran out", SLACK, () -> !view.exists(NAME));
            Throwable again = assertThrows(Exception.class, () -> get(mine.unlockAsync(a)));
            assertInstanceOf(HoldLostException.class, Futures.unwrap(again));
        }
    }

    @Test
    void anInnerUnlockThatCannotBeConfirmedLeavesTheHoldRenewed() throws Exception {
        try (HaspClient impatient = impatientClient();
                LockService watched = service(impatient, impatient, Duration.ofSeconds(6))) {
            HaspLock mine = Locks.reentrant(watched, NAME);
            get(mine.lockAsync(a));
            get(mine.lockAsync(a));
            CompletableFuture<HoldEnd> end = mine.holdEnd(a);
            cutOff();
            assertThrows(Exception.class, () -> get(mine.unlockAsync(a)));
            // The owner holds the lock whether or not that inner unlock ran: its outer code stays protected.
            assertNull(end.getNow(null));
            assertEquals(1, watched.heldLocks());
            int renewals = view.scriptCalls(RenewScript.SCRIPT, NAME).size();
            proxy.rejectNewConnections(false);
            await("renewed again once reachable", SLACK, () -> view.scriptCalls(RenewScript.SCRIPT, NAME).size() > renewals);
            assertEquals(2L, view.count(NAME, "me:1"), "the unlock never reached the server");
            get(mine.unlockAsync(a));
            get(mine.unlockAsync(a));
            assertFalse(view.exists(NAME));
            assertEquals(HoldEnd.RELEASED, end.get(SLACK.toSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void anAcquisitionWaitsForTheAnswerOfAnUnlockWhoseCallerCancelledIt() throws Exception {
        get(lock.lockAsync(a));
        proxy.delay(Duration.ofMillis(500));
        CompletableFuture<Void> unlock = lock.unlockAsync(a);
        assertTrue(unlock.cancel(false), "cancelled by its caller before the answer came");
        CompletableFuture<Void> again = lock.lockAsync(a);
        assertNull(get(again), "taken once the unlock had its answer");
        proxy.delay(Duration.ZERO);
        assertEquals(1L, view.count(NAME, "me:1"));
        get(lock.unlockAsync(a));
        assertFalse(view.exists(NAME));
    }

    @Test
    void aLockGrantedAsTheCallerCancelsIsGivenBack() throws Exception {
        proxy.delay(Duration.ofSeconds(2));
        CompletableFuture<Boolean> attempt = lock.tryLockAsync(60, -1, TimeUnit.SECONDS, a);
        await("the server granted it", SLACK, () -> Long.valueOf(1).equals(view.count(NAME, "me:1")));
        assertTrue(attempt.cancel(false), "the caller gave up before the reply arrived");
        await("the late grant released again", SLACK, () -> !view.exists(NAME));
        assertEquals("0", nextMessage());
        await("no hold left", SLACK, () -> service.heldLocks() == 0);
        assertFalse(get(lock.isHeldByAsync(a)));
    }

    @Test
    void aCancelledAcquisitionWhoseGrantTimedOutIsRolledBack() throws Exception {
        try (HaspClient impatient = impatientClient();
                LockService hurried = service(impatient, impatient, WATCHDOG)) {
            impatient.commands().ping().get(30, TimeUnit.SECONDS);
            proxy.delay(Duration.ofSeconds(2));
            CompletableFuture<Boolean> attempt = Locks.reentrant(hurried, NAME).tryLockAsync(60, -1, TimeUnit.SECONDS, a);
            await("the server granted it", SLACK, () -> Long.valueOf(1).equals(view.count(NAME, "me:1")));
            assertTrue(attempt.cancel(false));
            await("the grant whose reply timed out rolled back", SLACK, () -> !view.exists(NAME));
            assertEquals(0, hurried.heldLocks());
        }
    }

    @Test
    void aLockGrantedAsTheWaitingThreadIsInterruptedIsGivenBack() throws Exception {
        proxy.delay(Duration.ofSeconds(2));
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        AtomicReference<String> field = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            field.set(lock.currentOwner().field());
            try {
                lock.lockInterruptibly();
                outcome.set(new AssertionError("acquired although interrupted"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "interrupted-waiter");
        waiter.start();
        await("the server granted it", SLACK,
                () -> field.get() != null && Long.valueOf(1).equals(view.count(NAME, field.get())));
        waiter.interrupt();
        waiter.join(SLACK.toMillis());
        assertFalse(waiter.isAlive());
        assertEquals(InterruptedException.class, outcome.get().getClass(), String.valueOf(outcome.get()));
        await("the late grant released again", SLACK, () -> !view.exists(NAME));
        await("no hold left", SLACK, () -> service.heldLocks() == 0);
    }

    @Test
    void forceUnlockStopsRenewal() throws Exception {
        try (LockService watched = service(client, client, Duration.ofSeconds(3))) {
            HaspLock forced = Locks.reentrant(watched, NAME);
            get(forced.lockAsync(a));
            get(Locks.reentrant(watched, "sentinel").lockAsync(a));
            CompletableFuture<HoldEnd> end = forced.holdEnd(a);
            assertTrue(get(forced.forceUnlockAsync()));
            assertEquals(HoldEnd.RELEASED, end.getNow(null));
            assertFalse(view.exists(NAME));
            long forcedAt = view.scriptCalls(ForceUnlockScript.SCRIPT, NAME).get(0).id();
            await("two renewals of the other lock after the force unlock", SLACK,
                    () -> view.scriptCalls(RenewScript.SCRIPT, "sentinel").stream()
                            .filter(c -> c.id() > forcedAt).count() >= 2);
            assertTrue(view.scriptCalls(RenewScript.SCRIPT, NAME).stream().noneMatch(c -> c.id() > forcedAt));
        }
    }

    @Test
    void closingTheServiceStopsRenewalAndEndsHolds() throws Exception {
        LockService watched = service(client, client, Duration.ofSeconds(3));
        HaspLock closed = Locks.reentrant(watched, NAME);
        get(closed.lockAsync(a));
        CompletableFuture<HoldEnd> end = closed.holdEnd(a);
        watched.close();
        assertEquals(HoldEnd.CLIENT_CLOSED, end.getNow(null));
        // Renewals every second would keep the 3 s lease alive: the key expiring shows they stopped.
        await("the lease ran out in Redis", SLACK, () -> !view.exists(NAME));
    }
}
