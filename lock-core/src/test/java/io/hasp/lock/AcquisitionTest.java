package io.hasp.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The acquisition and unlock algorithms on a manual timer and an in-memory server. */
class AcquisitionTest {

    private static final String NAME = "orders";
    private static final String CHANNEL = "redisson_lock__channel:{orders}";

    private final ManualTimer timer = new ManualTimer();
    private final FakeLockServer server = new FakeLockServer(timer);
    private final LockService service = new LockService("me", server.commands(), server.pubSub(), timer,
            Duration.ofSeconds(30), Duration.ofMillis(10), Duration.ofSeconds(3), timer::nanoTime);
    private final HaspLock lock = service.lock(NAME);
    private final LockOwner a = lock.owner(1);
    private final LockOwner b = lock.owner(2);

    @Test
    void reentrantAcquisitionsCountUpAndUnlocksDown() {
        assertTrue(lock.tryLockAsync(a).join());
        assertTrue(lock.tryLockAsync(Duration.ZERO, Duration.ofSeconds(5), a).join());
        assertEquals(2L, server.count(NAME, "me:1"));
        lock.unlockAsync(a).join();
        assertEquals(1L, server.count(NAME, "me:1"));
        assertEquals(List.of(), server.published);
        lock.unlockAsync(a).join();
        assertFalse(server.exists(NAME));
        assertEquals(List.of(CHANNEL + "=0"), server.published);
    }

    @Test
    void aWaiterSubscribesThenIsWokenByTheUnlockMessage() {
        server.holdAs(NAME, "other:1", 30_000);
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(20, -1, TimeUnit.SECONDS, a);
        assertFalse(waiting.isDone());
        assertEquals(1, server.subscriberCount(CHANNEL));
        server.delete(NAME);
        server.publish(CHANNEL, "0");
        assertTrue(waiting.getNow(false));
        assertEquals(1L, server.count(NAME, "me:1"));
        timer.advance(LockService.LINGER_MILLIS, TimeUnit.MILLISECONDS);
        assertEquals(0, server.subscriberCount(CHANNEL), "unsubscribed after the linger");
    }

    @Test
    void aLostUnlockMessageCostsAtMostTheHoldersTtl() {
        server.holdAs(NAME, "other:1", 1_000);
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(20, -1, TimeUnit.SECONDS, a);
        timer.advance(999, TimeUnit.MILLISECONDS);
        assertFalse(waiting.isDone());
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertTrue(waiting.getNow(false), "looked again when the holder's ttl ran out");
    }

    @Test
    void tryLockReturnsFalseAtTheDeadlineAndLeavesNoWaiterBehind() {
        server.holdAs(NAME, "other:1", 30_000);
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(500, -1, TimeUnit.MILLISECONDS, a);
        timer.advance(499, TimeUnit.MILLISECONDS);
        assertFalse(waiting.isDone());
        timer.advance(1, TimeUnit.MILLISECONDS);
        assertEquals(false, waiting.getNow(null));
        WaitChannel channel = service.waiters().channel(LockKeys.channel(NAME));
        assertEquals(0, channel == null ? 0 : channel.waiters());
    }

    @Test
    void aZeroWaitMakesExactlyOneAttempt() {
        server.holdAs(NAME, "other:1", 30_000);
        assertFalse(lock.tryLockAsync(a).join());
        assertEquals(List.of("acquire"), server.calls);
        assertEquals(0, server.subscriberCount(CHANNEL));
    }

    @Test
    void anAcquireWhoseReplyWasLostIsRetriedWithoutCountingTwice() {
        server.loseReplies = 1;
        CompletableFuture<Boolean> first = lock.tryLockAsync(10, -1, TimeUnit.SECONDS, a);
        assertFalse(first.isDone());
        timer.advance(1, TimeUnit.SECONDS);
        assertTrue(first.getNow(false));
        assertEquals(1L, server.count(NAME, "me:1"));

        server.loseReplies = 2;
        CompletableFuture<Boolean> reentry = lock.tryLockAsync(10, -1, TimeUnit.SECONDS, a);
        timer.advance(1, TimeUnit.SECONDS);
        assertTrue(reentry.getNow(false));
        assertEquals(2L, server.count(NAME, "me:1"));
        assertEquals(List.of("acquire", "acquire", "acquire", "acquire", "acquire"), server.calls);
    }

    @Test
    void anAcquireWithUnknownOutcomeAtTheDeadlineIsRolledBack() {
        server.loseReplies = 1000;
        CompletableFuture<Boolean> attempt = lock.tryLockAsync(300, -1, TimeUnit.MILLISECONDS, a);
        timer.advance(300, TimeUnit.MILLISECONDS);
        assertEquals(false, attempt.getNow(null));
        server.loseReplies = 0;
        timer.advance(1, TimeUnit.SECONDS);
        assertTrue(server.calls.contains("rollback") || !server.exists(NAME));
        assertFalse(server.exists(NAME), "the hold the lost reply had granted was given back");
    }

    @Test
    void anUnlockWhoseReplyWasLostIsRetriedWithTheSameLatch() {
        lock.lockAsync(a).join();
        lock.lockAsync(a).join();
        server.loseReplies = 1;
        CompletableFuture<Void> unlock = lock.unlockAsync(a);
        timer.advance(1, TimeUnit.SECONDS);
        assertNull(unlock.join());
        assertEquals(1L, server.count(NAME, "me:1"), "one hold given back, not two");
        server.loseReplies = 1;
        CompletableFuture<Void> last = lock.unlockAsync(a);
        timer.advance(1, TimeUnit.SECONDS);
        assertNull(last.join());
        assertFalse(server.exists(NAME));
    }

    @Test
    void unlockByANonHolderFailsAndChangesNothing() {
        lock.lockAsync(a).join();
        CompletableFuture<Void> wrong = lock.unlockAsync(b);
        assertTrue(wrong.isCompletedExceptionally());
        assertEquals(IllegalMonitorStateException.class,
                wrong.handle((v, e) -> LockService.unwrap(e).getClass()).join());
        assertEquals(1L, server.count(NAME, "me:1"));
    }

    @Test
    void cancellingAWaitingAcquisitionLeavesNothingBehind() {
        server.holdAs(NAME, "other:1", 30_000);
        CompletableFuture<Void> waiting = lock.lockAsync(a);
        assertEquals(1, service.waiters().channel(LockKeys.channel(NAME)).waiters());
        assertTrue(waiting.cancel(false));
        assertEquals(0, service.waiters().channel(LockKeys.channel(NAME)).waiters());
        server.delete(NAME);
        server.publish(CHANNEL, "0");
        timer.advance(1, TimeUnit.MINUTES);
        assertFalse(server.exists(NAME));
    }

    @Test
    void aLocalUnlockHandsTheLockToALocalWaiterWithoutTheMessage() {
        lock.lockAsync(a).join();
        server.deliverMessages = false;
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(20, -1, TimeUnit.SECONDS, b);
        assertFalse(waiting.isDone());
        lock.unlockAsync(a).join();
        assertTrue(waiting.getNow(false));
        assertEquals(1L, server.count(NAME, "me:2"));
    }

    @Test
    void waitersOfOneNameShareOneSubscription() {
        server.holdAs(NAME, "other:1", 30_000);
        lock.lockAsync(a);
        lock.lockAsync(b);
        lock.lockAsync(lock.owner(3));
        assertEquals(1, server.subscriberCount(CHANNEL));
        assertEquals(3, service.waiters().channel(LockKeys.channel(NAME)).waiters());
    }

    @Test
    void aWatchdogHoldIsRenewedAndItsLossSignalled() {
        lock.lockAsync(a).join();
        CompletableFuture<HoldEnd> end = lock.holdEnd(a);
        timer.advance(10, TimeUnit.SECONDS);
        assertTrue(server.calls.contains("renew"));
        assertTrue(server.exists(NAME));
        server.delete(NAME);
        timer.advance(10, TimeUnit.SECONDS);
        assertEquals(HoldEnd.LOST, end.getNow(null));
    }

    @Test
    void aHoldWithALeaseIsNeverRenewed() {
        lock.lockAsync(Duration.ofSeconds(15), a).join();
        timer.advance(14, TimeUnit.SECONDS);
        assertFalse(server.calls.contains("renew"));
        timer.advance(1, TimeUnit.SECONDS);
        assertFalse(server.exists(NAME));
    }

    @Test
    void lockKeepsTryingWhileRedisFailsButNeverSpins() {
        server.loseReplies = Integer.MAX_VALUE;
        CompletableFuture<Void> locking = lock.lockAsync(a);
        timer.advance(10, TimeUnit.SECONDS);
        assertFalse(locking.isDone());
        long attempts = server.calls.stream().filter("acquire"::equals).count();
        assertTrue(attempts <= 10_000 / 200 + 10, attempts + " attempts in 10 s: the backoff must cap the rate");
        server.loseReplies = 0;
        timer.advance(1, TimeUnit.SECONDS);
        assertTrue(locking.isDone());
        assertEquals(1L, server.count(NAME, "me:1"), "the hold counted once although many sends may have run");
    }

    @Test
    void aLockGrantedAsTheCallerCancelsIsGivenBack() {
        server.deferReplies = true;
        CompletableFuture<Boolean> attempt = lock.tryLockAsync(10, -1, TimeUnit.SECONDS, a);
        assertEquals(1L, server.count(NAME, "me:1"), "the server granted it");
        assertTrue(attempt.cancel(false), "the caller gave up before the reply arrived");
        server.releaseReplies();
        assertFalse(server.exists(NAME), "the late grant was released again");
        assertEquals(List.of(CHANNEL + "=0"), server.published);
    }

    @Test
    void forceUnlockStopsRenewal() {
        lock.lockAsync(a).join();
        CompletableFuture<HoldEnd> end = lock.holdEnd(a);
        assertTrue(lock.forceUnlockAsync().join());
        assertEquals(HoldEnd.RELEASED, end.getNow(null));
        timer.advance(1, TimeUnit.MINUTES);
        assertFalse(server.calls.contains("renew"));
    }

    @Test
    void closingTheServiceStopsRenewalAndEndsHolds() {
        lock.lockAsync(a).join();
        CompletableFuture<HoldEnd> end = lock.holdEnd(a);
        service.close();
        assertEquals(HoldEnd.CLIENT_CLOSED, end.getNow(null));
        timer.advance(1, TimeUnit.MINUTES);
        assertFalse(server.calls.contains("renew"));
        assertFalse(server.exists(NAME), "the lease ran out in Redis");
    }
}
