package io.hasp.it.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One hot lock across processes: four worker JVMs, one thread each, increment a plain counter under the lock until
 * it reaches a total they share, while a fifth JVM waits in line for the lock and is killed with SIGKILL. The counter
 * comes out exact, every worker gets a fair share (the turns go round the line), and the dead waiter holds nobody
 * up: its turn is passed over at once, since it no longer listens. Then the fleet of a migration: two hasp JVMs and
 * two Redisson JVMs on one lock, the counter exact and Redisson's JVMs served.
 */
@ExtendWith(RedisServerExtension.class)
class HotLockFleetIT {

    private static final int WORKERS = 4;
    private static final int TOTAL = 4_000;

    @Test
    void twoHaspJvmsAndTwoRedissonJvmsShareAHotLockExactlyAndRedissonIsServed(RedisServer server) throws Exception {
        String lock = "fleet:mixed";
        String counter = "fleet:mixed:counter";
        List<ChildJvm> jvms = new ArrayList<>();
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            String go = "fleet:mixed:go";
            for (int i = 0; i < WORKERS; i++) {
                jvms.add(ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=share", "uri=" + server.uri(),
                        "lock=" + lock, "counter=" + counter, "total=" + TOTAL, "go=" + go,
                        "library=" + (i % 2 == 0 ? "hasp" : "redisson")));
            }
            for (ChildJvm jvm : jvms) {
                assertNotNull(jvm.awaitLine("READY", Duration.ofSeconds(60)), "a worker JVM did not start: " + jvm.output());
            }
            probe.call("SET", go, "1");   // every JVM starts counting at once, Redisson's as soon as hasp's
            long[] shares = shares(jvms);
            assertEquals(Integer.toString(TOTAL), probe.call("GET", counter));
            assertEquals(TOTAL, Arrays.stream(shares).sum(), "every increment counted once: " + Arrays.toString(shares));
            long redisson = shares[1] + shares[3];
            // Redisson's waiters wake on every release and race for the lock; hasp yields it to them while they listen.
            // (Before hasp's processes took turns, an in-process pair gave Redisson 1%.)
            assertTrue(redisson >= 0.1 * TOTAL, "the Redisson JVMs' share at least a tenth: " + Arrays.toString(shares));
            System.out.println("hot lock fleet, 2 hasp + 2 Redisson JVMs x 1 thread, " + TOTAL + " increments: shares "
                    + Arrays.toString(shares) + " (hasp, Redisson, hasp, Redisson)");
        } finally {
            for (ChildJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    /** Waits for the first {@value #WORKERS} JVMs' {@code DONE} lines: each one's increments. */
    private static long[] shares(List<ChildJvm> jvms) throws InterruptedException {
        long[] shares = new long[WORKERS];
        for (int i = 0; i < WORKERS; i++) {
            ChildJvm jvm = jvms.get(i);
            String line = jvm.awaitLine("DONE ", Duration.ofMinutes(3));
            assertNotNull(line, "a worker JVM did not finish; its output:\n" + jvm.output());
            shares[i] = Long.parseLong(line.split(" ")[1]);
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
        }
        return shares;
    }

    @Test
    void fourJvmsShareAHotLockExactlyAndFairlyWhileAWaitingJvmIsKilled(RedisServer server) throws Exception {
        String lock = "fleet:hot";
        String counter = "fleet:hot:counter";
        List<ChildJvm> jvms = new ArrayList<>();
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            for (int i = 0; i < WORKERS; i++) {
                jvms.add(ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=share", "uri=" + server.uri(),
                        "lock=" + lock, "counter=" + counter, "total=" + TOTAL));
            }
            ChildJvm doomed = ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=wait",
                    "uri=" + server.uri(), "lock=" + lock);
            jvms.add(doomed);
            assertNotNull(doomed.awaitLine("WAITING", Duration.ofSeconds(60)), doomed.output());
            Clients.await("the workers under way", Duration.ofSeconds(60), () -> {
                Object value = probe.call("GET", counter);
                return value != null && Long.parseLong((String) value) >= TOTAL / 10;
            });
            // By now the doomed JVM's lock() has long found the lock taken and stood in line.
            doomed.kill();

            long[] shares = shares(jvms);
            assertEquals(Integer.toString(TOTAL), probe.call("GET", counter));
            assertEquals(TOTAL, Arrays.stream(shares).sum(), "every increment counted once: " + Arrays.toString(shares));
            double mean = (double) TOTAL / WORKERS;
            assertTrue(Arrays.stream(shares).allMatch(share -> share >= 0.3 * mean),
                    "each JVM's share at least 0.3 of the mean: " + Arrays.toString(shares));
            System.out.println("hot lock fleet, " + WORKERS + " JVMs x 1 thread, " + TOTAL + " increments: shares "
                    + Arrays.toString(shares));
        } finally {
            for (ChildJvm jvm : jvms) {
                jvm.close();
            }
        }
    }
}
