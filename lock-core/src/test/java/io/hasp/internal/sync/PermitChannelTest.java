package io.hasp.internal.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.internal.pubsub.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How a synchronizer's announcements reach the parked waiters of one client: at most as many as the message says,
 * a wake that reaches a waiter whose wait had ended goes to the next one, and a latch's message wakes everyone. No
 * server: the channel alone, with waits whose tries are recorded and never answered.
 */
class PermitChannelTest {

    private final PermitWaiters waiters = new PermitWaiters(null, "test-client", null);
    private final List<String> tries = new ArrayList<>();

    private SyncWait parkedWait(PermitChannel channel, String name) {
        SyncWait wait = new SyncWait(waiters, null, channel.channel, false, () -> {
            tries.add(name);
            return new CompletableFuture<>();
        }, null, "semaphore", name, -1);
        channel.join();
        channel.parkUnlessChance(wait);
        return wait;
    }

    @Test
    void aMessageWakesAtMostAsManyWaitersAsItSaysLongestParkedFirst() {
        PermitChannel channel = new PermitChannel("redisson_sc:{s}", false);
        parkedWait(channel, "first");
        parkedWait(channel, "second");
        parkedWait(channel, "third");
        channel.onMessage(channel.channel, "2");
        assertEquals(List.of("first", "second"), tries);
        assertEquals(1, channel.parked());
    }

    @Test
    void aWaiterForMorePermitsThanAMessageFreesStaysParkedAndDoesNotHoldBackTheNext() {
        PermitChannel channel = new PermitChannel("redisson_sc:{s}", false);
        parkedWait(channel, "three").needing(3);
        parkedWait(channel, "one");
        parkedWait(channel, "another");
        channel.onMessage(channel.channel, "1");
        assertEquals(List.of("one"), tries, "one permit free: the waiter for one tries, the waiter for three waits on");
        channel.onMessage(channel.channel, "3");
        assertEquals(List.of("one", "three"), tries, "three free: the longest parked that fits");
        assertEquals(1, channel.parked());
    }

    @Test
    void aChanceLeftByAMessageGoesOnlyToATryThatFitsInThePermitsItFreed() {
        PermitChannel channel = new PermitChannel("redisson_sc:{s}", false);
        channel.join();
        channel.join();
        channel.onMessage(channel.channel, "1");   // nobody parked: one chance, for a try of one permit
        SyncWait forThree = new SyncWait(waiters, null, channel.channel, false, CompletableFuture::new, null,
                "semaphore", "three", -1).needing(3);
        SyncWait forOne = new SyncWait(waiters, null, channel.channel, false, CompletableFuture::new, null,
                "semaphore", "one", -1);
        assertTrue(channel.parkUnlessChance(forThree), "one free permit is no chance for three: it parks");
        assertFalse(channel.parkUnlessChance(forOne), "the chance is the waiter for one's: it tries again now");
    }

    @Test
    void aWakeThatReachesAnEndedWaitGoesToTheNextWaiter() {
        PermitChannel channel = new PermitChannel("redisson_sc:{s}", false);
        SyncWait ended = parkedWait(channel, "ended");
        parkedWait(channel, "next");
        ended.result.cancel(false);   // its wait ended (a deadline, a cancel) before it left the queue
        channel.onMessage(channel.channel, "1");
        assertEquals(List.of("next"), tries, "the one permit's wake was not lost on the ended wait");
    }

    @Test
    void aMessageWithNobodyParkedLeavesAChanceForAWaiterBetweenTries() {
        PermitChannel channel = new PermitChannel("redisson_sc:{s}", false);
        channel.join();
        channel.onMessage(channel.channel, "1");
        SyncWait between = new SyncWait(waiters, null, channel.channel, false, CompletableFuture::new, null, "semaphore", "w", -1);
        assertFalse(channel.parkUnlessChance(between), "the chance says: try again now");
    }

    private final List<Integer> passes = new ArrayList<>();

    private PermitChannel inLine() {
        return new PermitChannel("redisson_sc:{s}", false,
                new WakeLine("hasp_semaphore_wake__channel:{s}:test-client", passes::add));
    }

    @Test
    void aWakeInLineWakesWaitersHereAsAReleaseMessageDoes() {
        PermitChannel channel = inLine();
        parkedWait(channel, "first");
        parkedWait(channel, "second");
        parkedWait(channel, "third");
        channel.onLineMessage("2:5");
        assertEquals(List.of("first", "second"), tries, "two free permits: two waiters woken");
        assertEquals(List.of(), passes, "used here: not passed on");
    }

    @Test
    void aWakeInLineThatFitsNoWaiterHereIsPassedOnWithItsHops() {
        PermitChannel channel = inLine();
        parkedWait(channel, "three").needing(3);
        channel.onLineMessage("1:4");
        assertEquals(List.of(), tries, "one free permit: the waiter for three waits on");
        assertEquals(List.of(4), passes, "the next process in line gets the wake, which may visit four more");
    }

    @Test
    void aWakeInLineIsNotPassedOnWithoutHopsOrWhileAWaiterHereIsBetweenTries() {
        PermitChannel channel = inLine();
        parkedWait(channel, "three").needing(3);
        channel.onLineMessage("1:0");
        assertEquals(List.of(), passes, "no hop left: every process in line had it");
        channel.join();   // a waiter between a failed try and parking: the wake's chance is its
        channel.onLineMessage("1:3");
        assertEquals(List.of(), passes);
    }

    @Test
    void aWakeInLineReachingNobodyHereIsPassedOn() {
        PermitChannel channel = inLine();
        channel.onLineMessage("1:2");
        assertEquals(List.of(2), passes, "nobody waits here any more (the subscription is ending): passed on");
    }

    private static Subscription subscription(String channel) {
        return new Subscription() {
            @Override
            public String channel() {
                return channel;
            }

            @Override
            public CompletableFuture<Void> unsubscribe() {
                return CompletableFuture.completedFuture(null);
            }
        };
    }

    @Test
    void aMarkedAnnouncementIsPassedByInLineAndReadAsTheNumberElsewhere() {
        PermitChannel inLine = inLine();
        parkedWait(inLine, "in line");
        assertTrue(inLine.subscribed(subscription(inLine.channel), subscription(inLine.line.channel())));
        inLine.onMessage(inLine.channel, "02");
        assertEquals(List.of(), tries, "the release that marked it woke the line on its own channels");
        inLine.onMessage(inLine.channel, "2");
        assertEquals(List.of("in line"), tries, "an unmarked announcement (Redisson's release) wakes as before");

        PermitChannel deaf = inLine();   // its own channel's subscription failed: it hears the shared channel only
        parkedWait(deaf, "deaf in line");
        assertTrue(deaf.subscribed(subscription(deaf.channel), null));
        deaf.onMessage(deaf.channel, "02");
        assertEquals(List.of("in line", "deaf in line"), tries, "not listening in line: a marked announcement wakes");

        PermitChannel notInLine = new PermitChannel("redisson_sc:{t}", false);
        parkedWait(notInLine, "not in line");
        notInLine.onMessage(notInLine.channel, "02");
        assertEquals(List.of("in line", "deaf in line", "not in line"), tries,
                "without a line, a marked announcement is a number");
    }

    @Test
    void aLatchMessageWakesEveryWaiter() {
        PermitChannel channel = new PermitChannel("redisson_countdownlatch__channel__{l}", true);
        parkedWait(channel, "first");
        parkedWait(channel, "second");
        channel.onMessage(channel.channel, "0");
        assertEquals(List.of("first", "second"), tries);
    }
}
