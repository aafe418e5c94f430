package io.hasp.it.lock;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.testing.RedisProbe;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Small helpers shared by the lock's integration tests. */
final class Clients {

    private Clients() {
    }

    /** A hasp client on {@code uri} with the given watchdog lease. */
    static HaspClient hasp(String uri, Duration watchdogLease) {
        return HaspClient.create(HaspConfig.builder().uri(uri).watchdogLease(watchdogLease).build());
    }

    /** A hasp client on {@code uri} with the given watchdog lease and command timeout. */
    static HaspClient hasp(String uri, Duration watchdogLease, Duration commandTimeout) {
        return HaspClient.create(HaspConfig.builder().uri(uri).watchdogLease(watchdogLease)
                .commandTimeout(commandTimeout).build());
    }

    /** Waits until {@code condition} holds, polling; fails with {@code what} at the deadline. */
    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object pause = new Object();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            synchronized (pause) {
                pause.wait(10);
            }
        }
    }

    /** The number of subscribers of {@code channel} on the server. */
    static long subscribers(RedisProbe probe, String channel) {
        List<?> reply = (List<?>) probe.call("PUBSUB", "NUMSUB", channel);
        return (Long) reply.get(1);
    }

    /** Milliseconds as a Duration, for readability. */
    static Duration millis(long ms) {
        return Duration.ofMillis(ms);
    }

    /** Seconds as a Duration. */
    static Duration seconds(long s) {
        return Duration.of(s, TimeUnit.SECONDS.toChronoUnit());
    }
}
