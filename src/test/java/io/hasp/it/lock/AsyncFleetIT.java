package io.hasp.it.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A fleet of JVMs on one lock and one counter, mixing the APIs: two JVMs count through hasp-reactor
 * (8 subscriptions each, a thread hop inside every critical section) and one through the blocking API;
 * the counter ends exact and the lock free.
 */
@ExtendWith(RedisServerExtension.class)
class AsyncFleetIT {

    @Test
    void reactiveAndBlockingProcessesKeepOneCounterExact(RedisServer server) throws Exception {
        int owners = 8;
        int increments = 40;
        int blocking = 300;
        List<ChildJvm> fleet = new ArrayList<>();
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            for (int i = 0; i < 2; i++) {
                fleet.add(ChildJvm.start(ChildJvm.currentJava(), ReactiveFleetWorker.class, "uri=" + server.uri(),
                        "lock=fleet:async", "counter=fleet:async:counter", "owners=" + owners, "increments=" + increments));
            }
            fleet.add(ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=count", "uri=" + server.uri(),
                    "lock=fleet:async", "counter=fleet:async:counter", "threads=4", "increments=" + blocking));
            for (ChildJvm jvm : fleet) {
                assertNotNull(jvm.awaitLine("DONE ", Duration.ofMinutes(5)), jvm.output());
                assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
            }
            assertEquals(Integer.toString(2 * owners * increments + blocking), probe.call("GET", "fleet:async:counter"));
            assertEquals(0L, probe.call("EXISTS", "fleet:async"));
        } finally {
            fleet.forEach(ChildJvm::close);
        }
    }
}
