package io.hasp.internal.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hasp.RedisProtocolException;
import io.hasp.resp.RespArray;
import io.hasp.resp.RespBulkString;
import io.hasp.resp.RespInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How {@link LockLister} reads SCAN's pages; the listing itself runs against servers in the ITs. */
class LockListerTest {

    private static RespArray page(String cursor, String... names) {
        RespBulkString[] elements = new RespBulkString[names.length];
        for (int i = 0; i < names.length; i++) {
            elements[i] = RespBulkString.of(names[i]);
        }
        return RespArray.of(RespBulkString.of(cursor), RespArray.of(elements));
    }

    @Test
    void aPageGivesItsNamesOnceAndTheNextCursor() {
        Set<String> found = new LinkedHashSet<>(List.of("a"));
        assertEquals("17", LockLister.page(page("17", "a", "b", "c"), found, 10));
        assertEquals(List.of("a", "b", "c"), List.copyOf(found), "a name SCAN gave twice is listed once");
    }

    @Test
    void theLimitStopsTheListing() {
        Set<String> found = new LinkedHashSet<>();
        assertEquals("0", LockLister.page(page("0", "a", "b", "c"), found, 2));
        assertEquals(List.of("a", "b"), List.copyOf(found));
    }

    @Test
    void aReplyOfAnotherShapeIsAProtocolError() {
        assertThrows(RedisProtocolException.class, () -> LockLister.page(RespBulkString.of("0"), new LinkedHashSet<>(), 10));
        assertThrows(RedisProtocolException.class, () -> LockLister.page(
                RespArray.of(RespBulkString.of("0"), RespArray.of(new RespInteger(3))), new LinkedHashSet<>(), 10));
    }
}
