package io.hasp.internal.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Permit ids: 16 random bytes shown as 32 lowercase hexadecimal digits, read back in either case, nothing else. */
class PermitIdsTest {

    @Test
    void anIdIsSixteenBytesShownAsThirtyTwoLowercaseDigitsAndReadBack() {
        byte[] id = PermitIds.next();
        assertEquals(16, id.length);
        String text = PermitIds.text(id);
        assertTrue(text.matches("[0-9a-f]{32}"), text);
        assertArrayEquals(id, PermitIds.parse(text));
        assertArrayEquals(id, PermitIds.parse(text.toUpperCase(java.util.Locale.ROOT)));
    }

    @Test
    void everyByteValueSurvivesTheRoundTrip() {
        byte[] all = new byte[16];
        for (int start = 0; start < 256; start += 16) {
            for (int i = 0; i < 16; i++) {
                all[i] = (byte) (start + i);
            }
            assertArrayEquals(all, PermitIds.parse(PermitIds.text(all)));
        }
        assertEquals("00ff7f80", PermitIds.text(new byte[] {0, -1, 127, -128}));
    }

    @Test
    void idsDoNotRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            assertTrue(seen.add(PermitIds.text(PermitIds.next())));
        }
    }

    @Test
    void anythingButThirtyTwoAsciiHexDigitsIsRefusedNamingTheValue() {
        for (String bad : new String[] {"", "abc", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
                "0123456789abcdef0123456789abcdeg", "0123456789abcdef0123456789abcd\u0661\u0662", " 123456789abcdef0123456789abcdef"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PermitIds.parse(bad));
            assertTrue(refused.getMessage().contains('"' + bad + '"'), refused.getMessage());
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PermitIds.parse(null));
        assertFalse(refused.getMessage().isEmpty());
    }
}
