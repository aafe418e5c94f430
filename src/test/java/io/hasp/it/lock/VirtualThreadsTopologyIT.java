package io.hasp.it.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The blocking API on virtual threads on every deployment ({@link Topology}: one server, a local Redis Cluster,
 * Sentinel), in a child JVM on the Temurin 25 JDK when it is installed (skipped, and saying so, when not):
 * 2,000 virtual threads taking turns through 20 locks (spread over the cluster's slots) end exact, no carrier is
 * pinned for 20 ms or more, and the watchdog keeps a sleeping virtual thread's lock through 3.5 leases.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class VirtualThreadsTopologyIT {

    private static TopologyServers servers;

    @Parameter
    Topology topology;

    @AfterParameterizedClassInvocation
    static void stop() {
        if (servers != null) {
            servers.close();
            servers = null;
        }
    }

    @Test
    void virtualThreadsStayExactUnpinnedAndRenewed() throws Exception {
        String java = ChildJvm.temurin25();
        Assumptions.assumeTrue(java != null, "no Temurin 25 JDK under /usr/lib/jvm/temurin-25-jdk-amd64");
        servers = TopologyServers.start(topology);
        int threads = 2_000;
        int rounds = 2;
        int locks = 20;
        String prefix = "vt-" + topology.name().toLowerCase();
        try (ChildJvm jvm = ChildJvm.start(java, VirtualThreadsWorker.class, "uri=" + servers.uri(), "prefix=" + prefix,
                "locks=" + locks, "threads=" + threads, "rounds=" + rounds, "pinnedMillis=20", "watchdog=2000",
                "longHoldMillis=7000")) {
            assertNotNull(jvm.awaitLine("DONE ", Duration.ofMinutes(5)), jvm.output());
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
            assertTrue(jvm.output().contains("PINNED 0"), "a carrier thread was pinned for 20 ms or more:\n" + jvm.output());
            assertTrue(jvm.output().contains("WATCHDOG held=true"),
                    "a virtual thread's lock was lost while it slept through 3.5 leases:\n" + jvm.output());
        }
        long total = 0;
        for (int i = 0; i < locks; i++) {
            String counterKey = prefix + ":counter:" + i;
            String counter = (String) servers.call(counterKey, "GET", counterKey);
            assertEquals(Integer.toString(threads * rounds / locks), counter, "counter " + i + " on " + topology);
            total += Long.parseLong(counter);
            String lockKey = prefix + ":lock:" + i;
            assertEquals(0L, servers.call(lockKey, "EXISTS", lockKey));
        }
        assertEquals((long) threads * rounds, total);
    }
}
