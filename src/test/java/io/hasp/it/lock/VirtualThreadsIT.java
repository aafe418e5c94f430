package io.hasp.it.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The blocking API on virtual threads, in a child JVM on the Temurin 25 JDK when it is installed (the
 * build targets Java 17; without a 21+ JDK these tests are skipped and say so).
 */
@ExtendWith(RedisServerExtension.class)
class VirtualThreadsIT {

    @Test
    void aThousandVirtualThreadsContendAndFinish(RedisServer server) throws Exception {
        String java = ChildJvm.temurin25();
        Assumptions.assumeTrue(java != null, "no Temurin 25 JDK under /usr/lib/jvm/temurin-25-jdk-amd64");
        int increments = 3_000;
        try (ChildJvm jvm = ChildJvm.start(java, LockWorker.class, "mode=virtual", "uri=" + server.uri(),
                "lock=virtual:lock", "counter=virtual:counter", "threads=1000", "increments=" + increments);
                RedisProbe probe = RedisProbe.connect(server.port())) {
            assertNotNull(jvm.awaitLine("DONE ", Duration.ofMinutes(5)), jvm.output());
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
            assertEquals(Integer.toString(increments), probe.call("GET", "virtual:counter"));
            assertEquals(0L, probe.call("EXISTS", "virtual:lock"));
        }
    }

    @Test
    void tenThousandVirtualThreadsOnAHundredLocksStayExactAndNoCarrierIsPinned(RedisServer server) throws Exception {
        String java = ChildJvm.temurin25();
        Assumptions.assumeTrue(java != null, "no Temurin 25 JDK under /usr/lib/jvm/temurin-25-jdk-amd64");
        int threads = 10_000;
        int rounds = 2;
        int locks = 100;
        try (ChildJvm jvm = ChildJvm.start(java, VirtualThreadsWorker.class, "uri=" + server.uri(), "prefix=vt",
                "locks=" + locks, "threads=" + threads, "rounds=" + rounds, "pinnedMillis=20", "watchdog=2000",
                "longHoldMillis=7000");
                RedisProbe probe = RedisProbe.connect(server.port())) {
            assertNotNull(jvm.awaitLine("DONE ", Duration.ofMinutes(5)), jvm.output());
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
            assertTrue(jvm.output().contains("PINNED 0"), "a carrier thread was pinned for 20 ms or more:\n" + jvm.output());
            assertTrue(jvm.output().contains("WATCHDOG held=true"),
                    "a virtual thread's lock was lost while it slept through 3.5 leases:\n" + jvm.output());
            long total = 0;
            for (int i = 0; i < locks; i++) {
                String counter = (String) probe.call("GET", "vt:counter:" + i);
                assertEquals(Integer.toString(threads * rounds / locks), counter, "counter " + i);
                total += Long.parseLong(counter);
                assertEquals(0L, probe.call("EXISTS", "vt:lock:" + i));
            }
            assertEquals((long) threads * rounds, total);
        }
    }

    /**
     * A few virtual threads, no more than the client's direct connections: their blocking calls write and read
     * their scripts on direct connections themselves (the socket read parks the virtual thread, not its
     * carrier), and the counters stay exact.
     */
    @Test
    void aFewVirtualThreadsUseTheDirectConnectionsUnpinnedAndExact(RedisServer server) throws Exception {
        String java = ChildJvm.temurin25();
        Assumptions.assumeTrue(java != null, "no Temurin 25 JDK under /usr/lib/jvm/temurin-25-jdk-amd64");
        int threads = 4;
        int rounds = 250;
        int locks = 2;
        try (ChildJvm jvm = ChildJvm.start(java, VirtualThreadsWorker.class, "uri=" + server.uri(), "prefix=vt-direct",
                "locks=" + locks, "threads=" + threads, "rounds=" + rounds, "pinnedMillis=20");
                RedisProbe probe = RedisProbe.connect(server.port())) {
            assertNotNull(jvm.awaitLine("DONE ", Duration.ofMinutes(5)), jvm.output());
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
            assertTrue(jvm.output().contains("PINNED 0"), "a carrier thread was pinned for 20 ms or more:\n" + jvm.output());
            String direct = jvm.output().lines().filter(line -> line.startsWith("DIRECT open=")).findFirst().orElseThrow();
            assertTrue(Integer.parseInt(direct.substring("DIRECT open=".length())) > 0,
                    "the virtual threads' calls opened no direct connection:\n" + jvm.output());
            for (int i = 0; i < locks; i++) {
                assertEquals(Integer.toString(threads * rounds / locks), probe.call("GET", "vt-direct:counter:" + i),
                        "counter " + i);
                assertEquals(0L, probe.call("EXISTS", "vt-direct:lock:" + i));
            }
        }
    }
}
