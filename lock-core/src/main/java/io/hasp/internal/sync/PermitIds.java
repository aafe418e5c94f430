package io.hasp.internal.sync;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The ids of leased permits, as Redisson's permit-expirable semaphore has them: 16 random bytes, stored raw in the
 * semaphore's sorted set of leases and shown as 32 lowercase hexadecimal digits.
 */
final class PermitIds {

    private static final int BYTES = 16;
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private PermitIds() {
    }

    /** A new id's bytes. */
    static byte[] next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        byte[] id = new byte[BYTES];
        long high = random.nextLong();
        long low = random.nextLong();
        for (int i = 0; i < 8; i++) {
            id[i] = (byte) (high >>> (56 - 8 * i));
            id[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return id;
    }

    /** {@code id} as the caller sees it: 32 lowercase hexadecimal digits. */
    static String text(byte[] id) {
        char[] text = new char[id.length * 2];
        for (int i = 0; i < id.length; i++) {
            text[2 * i] = DIGITS[(id[i] >> 4) & 0xf];
            text[2 * i + 1] = DIGITS[id[i] & 0xf];
        }
        return new String(text);
    }

    /**
     * The bytes of the id a caller gave.
     *
     * @throws IllegalArgumentException when {@code text} is not 32 hexadecimal digits (either case)
     */
    static byte[] parse(String text) {
        if (text == null || text.length() != 2 * BYTES) {
            throw new IllegalArgumentException("permit id: " + (text == null ? "null" : '"' + text + '"')
                    + " (expected: the 32 hexadecimal digits an acquisition returned)");
        }
        byte[] id = new byte[BYTES];
        for (int i = 0; i < BYTES; i++) {
            int high = digit(text.charAt(2 * i));
            int low = digit(text.charAt(2 * i + 1));
            if (high < 0 || low < 0) {
                throw new IllegalArgumentException("permit id: \"" + text
                        + "\" (expected: the 32 hexadecimal digits an acquisition returned)");
            }
            id[i] = (byte) (high << 4 | low);
        }
        return id;
    }

    /** The value of an ASCII hexadecimal digit, or -1. */
    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
