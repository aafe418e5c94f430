package io.hasp.lock.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Wake-up rules of one lock's waiters: "0" wakes one, "1" and a resubscription wake all. */
class RwWaitChannelTest {

    private final RwWaitChannel channel = new RwWaitChannel("stock");
    private final AtomicInteger woken = new AtomicInteger();

    private RwWake parked() {
        assertTrue(channel.join());
        RwWake wake = new RwWake(woken::incrementAndGet);
        assertTrue(channel.parkUnlessPermit(wake));
        return wake;
    }

    @Test
    void readUnlockMessageWakesOneWaiter() {
        parked();
        parked();
        channel.onMessage(channel.channel, RwKeys.UNLOCK_MESSAGE);
        assertEquals(1, woken.get());
        channel.onMessage(channel.channel, RwKeys.UNLOCK_MESSAGE);
        assertEquals(2, woken.get());
    }

    @Test
    void writeUnlockMessageWakesAllWaiters() {
        for (int i = 0; i < 5; i++) {
            parked();
        }
        channel.onMessage(channel.channel, RwKeys.READ_UNLOCK_MESSAGE);
        assertEquals(5, woken.get());
    }

    @Test
    void resubscriptionWakesAllWaiters() {
        parked();
        parked();
        channel.onResubscribed(channel.channel);
        assertEquals(2, woken.get());
    }

    @Test
    void messageWithNobodyParkedLeavesAPermitForAJoinedWaiter() {
        assertTrue(channel.join());
        channel.onMessage(channel.channel, RwKeys.UNLOCK_MESSAGE);
        RwWake wake = new RwWake(woken::incrementAndGet);
        assertFalse(channel.parkUnlessPermit(wake), "the permit says: look again now");
        assertTrue(channel.parkUnlessPermit(wake), "one permit only");
    }

    @Test
    void aWakeClaimedByItsTimeoutIsSkipped() {
        RwWake timedOut = parked();
        assertTrue(timedOut.claim());
        parked();
        channel.onMessage(channel.channel, RwKeys.UNLOCK_MESSAGE);
        assertEquals(1, woken.get(), "the message went to the waiter still parked");
    }

    @Test
    void lastWaiterLeavingClosesTheChannel() {
        assertTrue(channel.join());
        assertTrue(channel.join());
        assertFalse(channel.leave());
        assertTrue(channel.leave());
        assertFalse(channel.join(), "a closed channel is replaced, not reused");
    }

    @Test
    void otherMessagesAreIgnored() {
        parked();
        channel.onMessage(channel.channel, "something else");
        assertEquals(0, woken.get());
    }
}
