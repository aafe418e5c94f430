package io.hasp.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.it.lock.ChildJvm;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fleets of processes on one semaphore of three permits, three threads each: four JVMs with hasp's semaphore (its
 * releases wake the processes in line), and two with hasp's and two with Redisson's (hasp's releases announce on the
 * shared channel, which Redisson's waiters listen on). Every holder counts itself in a holders key while it holds a
 * permit and checks the count: the holders never outnumber the permits, every acquisition of every process is done,
 * and no permit is lost.
 */
@ExtendWith(RedisServerExtension.class)
class SemaphoreFleetIT {

    private static final int PERMITS = 3;
    private static final int THREADS = 3;
    private static final int ROUNDS = 30;

    @Test
    void aFleetOfHaspProcessesNeverHasMoreHoldersThanPermitsAndLosesNone(RedisServer server) throws Exception {
        fleet(server, "fleet:hasp", List.of("hasp", "hasp", "hasp", "hasp"));
    }

    @Test
    void aMixedFleetOfProcessesNeverHasMoreHoldersThanPermitsAndLosesNone(RedisServer server) throws Exception {
        fleet(server, "fleet:mixed", List.of("hasp", "redisson", "hasp", "redisson"));
    }

    private static void fleet(RedisServer server, String name, List<String> libraries) throws Exception {
        String holders = name + ":holders";
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(server.uri()).build());
                RedisProbe probe = RedisProbe.connect(server.port())) {
            HaspSemaphore semaphore = client.getSemaphore(name);
            assertTrue(semaphore.trySetPermits(PERMITS));
            List<ChildJvm> fleet = new ArrayList<>();
            try {
                for (String library : libraries) {
                    fleet.add(ChildJvm.start(ChildJvm.currentJava(), SemaphoreFleetWorker.class, "library=" + library,
                            "uri=" + server.uri(), "port=" + server.port(), "semaphore=" + name, "holders=" + holders,
                            "permits=" + PERMITS, "threads=" + THREADS, "rounds=" + ROUNDS));
                }
                long total = 0;
                for (ChildJvm process : fleet) {
                    assertEquals(0, process.awaitExit(Duration.ofMinutes(3)), process.output());
                    String done = process.awaitLine("DONE ", Duration.ofSeconds(5));
                    assertNotNull(done, process.output());
                    String[] figures = done.split(" ");
                    total += Long.parseLong(figures[1]);
                    assertTrue(Long.parseLong(figures[2]) <= PERMITS, "at most three holders at once: " + done);
                    assertEquals("0", figures[3], "never more holders than permits: " + done);
                }
                assertEquals((long) libraries.size() * THREADS * ROUNDS, total, "every acquisition of every process done");
            } finally {
                fleet.forEach(ChildJvm::close);
            }
            assertEquals(PERMITS, semaphore.availablePermits(), "no permit lost");
            assertEquals("0", probe.call("GET", holders), "nobody holds one");
        }
    }
}
