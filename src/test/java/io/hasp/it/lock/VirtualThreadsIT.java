package io.hasp.it.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Blocking lock() on 1,000 virtual threads, in a child JVM on the Temurin 25 JDK when it is installed. */
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
}
