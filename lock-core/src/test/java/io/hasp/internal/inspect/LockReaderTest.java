package io.hasp.internal.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisProtocolException;
import io.hasp.inspect.LockHolder;
import io.hasp.inspect.LockInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link LockReader} reads the inspect script's reply; the script itself runs against servers in the ITs. */
class LockReaderTest {

    private static final String HASP = "6674967c-dda5-8988-aaf4-08ee76b511e9";

    /** A reply as inspect.lua writes it, with the given middle sections. */
    private static List<String> reply(String type, String pttl, List<String> hash, List<String> queue) {
        List<String> reply = new ArrayList<>(List.of("1700000000000", type, pttl, Integer.toString(hash.size() / 2)));
        reply.addAll(hash);
        reply.addAll(List.of("", ""));                       // no number, no token
        reply.add(Integer.toString(queue.size() / 3));
        reply.addAll(queue);
        reply.addAll(List.of("0", "", "0", "0", "", "0"));   // two empty lines
        reply.addAll(List.of("0", "0", "2", "0", "0", "0")); // no read holds, no leases, listeners
        return reply;
    }

    @Test
    void aHeldReentrantLockAndItsListeners() {
        LockInfo info = LockReader.parse("orders", reply("hash", "25000", List.of(HASP + ":57", "2"), List.of()));
        assertEquals(LockInfo.Kind.REENTRANT, info.kind());
        assertEquals(Instant.ofEpochMilli(1_700_000_000_000L), info.readAt());
        assertEquals(Duration.ofSeconds(25), info.leaseLeft());
        LockHolder holder = info.holders().get(0);
        assertEquals(HASP, holder.clientId());
        assertEquals(57L, holder.holderId());
        assertEquals(2, holder.holdCount());
        assertTrue(holder.isHasp());
        assertEquals(2, info.listeners());
    }

    @Test
    void aFairQueueWhoseDeadlineReadsAsADouble() {
        LockInfo info = LockReader.parse("orders", reply("none", "-2", List.of(),
                List.of(HASP + ":-3", "1.7000000001e+12", "1700000005000")));
        assertEquals(LockInfo.Kind.FAIR, info.kind());
        assertEquals(-3L, info.queue().get(0).holderId());
        assertEquals(Instant.ofEpochMilli(1_700_000_000_100L), info.queue().get(0).deadline());
        assertEquals(Duration.ofSeconds(5), info.queue().get(0).placeLeft());
        assertNull(info.leaseLeft());
    }

    @Test
    void anOwnerOfAnotherFormIsKeptWhole() {
        LockInfo info = LockReader.parse("orders", reply("hash", "-1", List.of("worker-7", "1"), List.of()));
        assertEquals("worker-7", info.holders().get(0).clientId());
        assertNull(info.holders().get(0).holderId());
        assertNull(info.leaseLeft(), "no expiry");
    }

    @Test
    void aMalformedReplyIsAProtocolError() {
        RedisProtocolException truncated = assertThrows(RedisProtocolException.class,
                () -> LockReader.parse("orders", List.of("1700000000000", "hash")));
        assertTrue(truncated.getMessage().startsWith("inspect orders: unexpected reply"), truncated.getMessage());
        assertThrows(RedisProtocolException.class,
                () -> LockReader.parse("orders", reply("hash", "not a number", List.of(), List.of())));
    }
}
