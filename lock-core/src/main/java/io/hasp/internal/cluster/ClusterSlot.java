package io.hasp.internal.cluster;

import java.nio.charset.StandardCharsets;

/**
 * The Redis Cluster hash slot of a key: CRC16 (XMODEM: polynomial 0x1021, initial value 0) of the
 * key's hash tag, modulo 16384. The hash tag is the part between the first {@code '{'} and the
 * first {@code '}'} after it, when that part is not empty; otherwise the whole key. Every key of a
 * hasp lock carries the lock's {@code {name}} tag, so all of them share the lock's slot.
 */
public final class ClusterSlot {

    /** Slots of a Redis Cluster. */
    public static final int SLOTS = 16384;

    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xFFFF;
        }
    }

    private ClusterSlot() {
    }

    /** The slot of {@code key}, encoded as UTF-8 the way hasp sends keys. */
    public static int of(String key) {
        return of(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The slot of the key {@code bytes}. */
    public static int of(byte[] key) {
        int from = 0;
        int to = key.length;
        for (int open = 0; open < key.length; open++) {
            if (key[open] == '{') {
                for (int close = open + 1; close < key.length; close++) {
                    if (key[close] == '}') {
                        if (close > open + 1) {
                            from = open + 1;
                            to = close;
                        }
                        break;
                    }
                }
                break;
            }
        }
        return crc16(key, from, to) & (SLOTS - 1);
    }

    /** CRC16/XMODEM of {@code bytes[from, to)}. */
    static int crc16(byte[] bytes, int from, int to) {
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ bytes[i]) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }
}
