package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How unlock messages, permits and local hand-offs wake the waiters of one lock. */
class WaitChannelTest {

    private final WaitChannel channel = new WaitChannel(LockKeys.channel("orders"));
    private final List<String> woken = new ArrayList<>();

    private Wake parked(String who) {
        Wake wake = new Wake(() -> woken.add(who));
        assertTrue(channel.parkUnlessPermit(wake));
        return wake;
    }

    @Test
    void usesRedissonsChannelName() {
        assertEquals("redisson_lock__channel:{orders}", channel.channel);
        assertEquals("redisson_lock__channel:{a}b", LockKeys.channel("{a}b"));
        assertEquals("redisson_unlock_latch:{orders}:r1", LockKeys.unlockLatch("orders", "r1"));
    }

    @Test
    void anUnlockMessageWakesOneWaiterInArrivalOrder() {
        channel.join();
        channel.join();
        parked("first");
        parked("second");
        channel.onMessage(channel.channel, "0");
        assertEquals(List.of("first"), woken);
        channel.onMessage(channel.channel, "0");
        assertEquals(List.of("first", "second"), woken);
    }

    @Test
    void aMessageWithNobodyParkedLeavesAPermitButNoMoreThanOnePerWaiter() {
        channel.join();
        channel.onMessage(channel.channel, "0");
        channel.onMessage(channel.channel, "0");
        assertFalse(channel.parkUnlessPermit(new Wake(() -> woken.add("x"))), "the permit says: try again now");
        assertTrue(channel.parkUnlessPermit(new Wake(() -> woken.add("y"))), "only one permit for one waiter");
    }

    @Test
    void aWakeClaimedBeforeItParkedTakesNeitherAPlaceNorTheLiveWaitersPermit() {
        channel.join();
        channel.join();
        channel.onMessage(channel.channel, "0");
        Wake ended = new Wake(() -> woken.add("ended"));
        assertTrue(ended.cancel(), "its acquisition ended as it was about to park");
        assertTrue(channel.parkUnlessPermit(ended), "nothing to retry");
        assertEquals(0, channel.parked(), "and nothing parked");
        assertFalse(channel.parkUnlessPermit(new Wake(() -> woken.add("live"))), "the permit is still there");
        assertEquals(List.of(), woken);
    }

    @Test
    void aWaiterWhoseTimeoutFiredIsSkipped() {
        channel.join();
        channel.join();
        Wake timedOut = parked("timed out");
        parked("next");
        assertTrue(timedOut.claim());
        channel.onMessage(channel.channel, "0");
        assertEquals(List.of("next"), woken);
    }

    @Test
    void aLocalHandOffWakesAtOnceAndTheMessageStillWakesTheNext() {
        channel.ready.complete(channel);
        channel.join();
        channel.join();
        parked("first");
        parked("second");
        channel.handOff(System.nanoTime());
        assertEquals(List.of("first"), woken);
        channel.onMessage(channel.channel, "0");
        assertEquals(List.of("first", "second"), woken, "no message is ever swallowed");
    }

    @Test
    void noHandOffBeforeTheSubscriptionIsConfirmed() {
        channel.join();
        parked("first");
        channel.handOff(System.nanoTime());
        assertTrue(woken.isEmpty());
        channel.onMessage(channel.channel, "0");
        assertEquals(List.of("first"), woken);
    }

    @Test
    void readUnlockAndResubscriptionWakeEveryone() {
        channel.join();
        channel.join();
        parked("a");
        parked("b");
        channel.onMessage(channel.channel, "1");
        assertEquals(List.of("a", "b"), woken);
        parked("c");
        channel.onResubscribed(channel.channel);
        assertEquals(List.of("a", "b", "c"), woken);
    }

    @Test
    void theLastWaiterLeavingClearsPermitsAndAllowsClosing() {
        channel.join();
        channel.onMessage(channel.channel, "0");
        assertTrue(channel.leave(), "last one out");
        channel.join();
        assertTrue(channel.parkUnlessPermit(new Wake(() -> { })), "no stale permit for a new waiter");
    }
}
