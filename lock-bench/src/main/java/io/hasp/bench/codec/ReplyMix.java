package io.hasp.bench.codec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The wire bytes of a realistic reply mix for a lock client, generated from a fixed seed:
 * 40% integers (PTTLs, counters), 20% nil (lock acquired), 15% short bulk strings, 10% {@code +OK},
 * 10% arrays of 2 to 8 short bulk strings, 5% errors. Not thread-safe; used by the benchmarks.
 */
public final class ReplyMix {

    /** The number of replies in {@link #bytes()}. */
    public static final int REPLIES = 200;

    private ReplyMix() {
    }

    /**
     * Returns the concatenated wire bytes of {@link #REPLIES} replies.
     *
     * @return the mix, the same on every call
     */
    public static byte[] bytes() {
        SplittableRandom random = new SplittableRandom(42);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < REPLIES; i++) {
            int kind = random.nextInt(100);
            if (kind < 40) {
                ascii(out, ":" + random.nextLong(0, 30_001) + "\r\n");
            } else if (kind < 60) {
                ascii(out, "$-1\r\n");
            } else if (kind < 75) {
                bulk(out, word(random));
            } else if (kind < 85) {
                ascii(out, "+OK\r\n");
            } else if (kind < 95) {
                int n = random.nextInt(2, 9);
                ascii(out, "*" + n + "\r\n");
                for (int j = 0; j < n; j++) {
                    bulk(out, word(random));
                }
            } else {
                ascii(out, "-NOSCRIPT No matching script. Please use EVAL.\r\n");
            }
        }
        return out.toByteArray();
    }

    private static String word(SplittableRandom random) {
        int length = random.nextInt(4, 25);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    private static void bulk(ByteArrayOutputStream out, String value) {
        ascii(out, "$" + value.length() + "\r\n" + value + "\r\n");
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }
}
