package io.hasp.it.rw;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.Replies;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Small helpers of the read/write lock integration tests: clients, Redis reads, waiting with deadlines. */
final class RwTesting {

    /** How long any single wait of these tests may take before it counts as a failure. */
    static final Duration DEADLINE = Duration.ofSeconds(20);

    private RwTesting() {
    }

    static HaspClient client(String uri) {
        return HaspClient.create(HaspConfig.builder().uri(uri).build());
    }

    static HaspClient client(String uri, Duration watchdogLease) {
        return HaspClient.create(HaspConfig.builder().uri(uri).watchdogLease(watchdogLease).build());
    }

    /** Waits until {@code condition} holds, polling; fails with {@code what} after {@code deadline}. */
    static void until(Duration deadline, String what, BooleanSupplier condition) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("not within " + deadline + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    static <T> T get(CompletableFuture<T> future) {
        try {
            return future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("future did not complete normally within " + DEADLINE, e);
        }
    }

    static long pttl(HaspClient client, String key) {
        return get(client.commands().pttl(key));
    }

    static boolean exists(HaspClient client, String key) {
        return pttl(client, key) != -2;
    }

    static List<String> keys(HaspClient client) {
        return get(client.commands().execute(Replies.STRING_LIST, "KEYS", "*"));
    }

    /** The Redis Cluster hash slot of {@code key} (CRC16/XMODEM of its hash tag, mod 16384). */
    static int slot(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                key = key.substring(open + 1, close);
            }
        }
        int crc = 0;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            crc ^= (b & 0xff) << 8;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x1021) : crc << 1;
                crc &= 0xffff;
            }
        }
        return crc % 16384;
    }
}
