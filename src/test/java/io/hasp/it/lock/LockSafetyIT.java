package io.hasp.it.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several JVMs and threads increment a plain counter with GET then SET under the lock: zero lost
 * updates is the only passing result, also while a proxy keeps cutting connections (for the fair lock too).
 */
@ExtendWith(RedisServerExtension.class)
class LockSafetyIT {

    private static List<ChildJvm> fleet(String uri, String kind, String lock, String counter, int processes,
            int threads, int total) {
        List<ChildJvm> jvms = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            int share = total / processes + (p < total % processes ? 1 : 0);
            jvms.add(ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=count", "kind=" + kind, "uri=" + uri,
                    "lock=" + lock, "counter=" + counter, "threads=" + threads, "increments=" + share));
        }
        return jvms;
    }

    private static void awaitFleet(List<ChildJvm> jvms, int total, Duration timeout) throws InterruptedException {
        int done = 0;
        for (ChildJvm jvm : jvms) {
            String line = jvm.awaitLine("DONE ", timeout);
            assertNotNull(line, "a worker JVM did not finish; its output:\n" + jvm.output());
            String[] parts = line.split(" ");
            done += Integer.parseInt(parts[1]);
            assertEquals("0", parts[2], "tryLock(60 s) returned false before 60 s; output:\n" + jvm.output());
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
        }
        assertEquals(total, done);
    }

    @Test
    void threeJvmsTimesEightThreadsLoseNoIncrement(RedisServer server) throws Exception {
        int total = 20_000;
        List<ChildJvm> jvms = fleet(server.uri(), "reentrant", "safety:lock", "safety:counter", 3, 8, total);
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            awaitFleet(jvms, total, Duration.ofMinutes(8));
            assertEquals(Integer.toString(total), probe.call("GET", "safety:counter"));
            assertEquals(0L, probe.call("EXISTS", "safety:lock"));
            // Wait subscriptions linger under steady contention instead of costing a SUBSCRIBE and
            // an UNSUBSCRIBE per contended acquisition.
            long subscribes = probe.commandCalls("subscribe");
            assertTrue(subscribes < total / 100, subscribes + " SUBSCRIBE calls for " + total + " acquisitions");
        } finally {
            for (ChildJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    /** The reentrant lock, and the fair lock (whose waiters keep their places in line through the cuts). */
    @ParameterizedTest
    @ValueSource(strings = {"reentrant", "fair"})
    void twoJvmsTimesFourThreadsLoseNoIncrementWhileConnectionsAreCut(String kind, RedisServer server) throws Exception {
        int total = 2_000;
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        try (TcpProxy proxy = TcpProxy.start(server.port()); RedisProbe probe = RedisProbe.connect(server.port())) {
            List<ChildJvm> jvms = fleet(proxy.uri(), kind, "chaos:" + kind + ":lock", "chaos:" + kind + ":counter", 2, 4,
                    total);
            Random random = new Random(7);
            int[] cuts = {0};
            chaos.scheduleWithFixedDelay(() -> {
                int accepted = proxy.acceptedCount();
                if (accepted == 0) {
                    return;
                }
                // Every other round swallows the next reply of a random recent connection and cuts it;
                // the rounds between cut every connection (the proxy has no single plain cut).
                int index = Math.max(0, accepted - 1 - random.nextInt(Math.min(accepted, 6)));
                try {
                    if (cuts[0]++ % 2 == 0) {
                        proxy.dropNextReplyAndCut(index);
                    } else {
                        proxy.cutAll();
                    }
                } catch (IllegalArgumentException e) {
                    // the connection list changed under us: skip this round
                }
            }, 100, 100, TimeUnit.MILLISECONDS);
            try {
                awaitFleet(jvms, total, Duration.ofMinutes(8));
            } finally {
                chaos.shutdownNow();
                chaos.awaitTermination(10, TimeUnit.SECONDS);
                for (ChildJvm jvm : jvms) {
                    jvm.close();
                }
            }
            assertEquals(Integer.toString(total), probe.call("GET", "chaos:" + kind + ":counter"));
            assertTrue(cuts[0] >= 10 && proxy.acceptedCount() >= 10,
                    "the chaos did cut: " + cuts[0] + " cuts, " + proxy.acceptedCount() + " connections accepted");
        } finally {
            chaos.shutdownNow();
        }
    }
}
