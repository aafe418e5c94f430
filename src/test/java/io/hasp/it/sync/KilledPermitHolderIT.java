package io.hasp.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.it.lock.ChildJvm;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JVM holding permits dies by SIGKILL. The permits it took without a lease from hasp's permit-expirable semaphore,
 * kept by its watchdog while it lived, are back within one lease, and a waiter in another process gets them; the
 * permit it took from a plain semaphore (in Redisson's hands here) never comes back, which is what the expirable
 * semaphore is for.
 */
@ExtendWith(RedisServerExtension.class)
class KilledPermitHolderIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final long WATCHDOG_MILLIS = 1_500;

    @Test
    void thePermitsOfAKilledHolderComeBackWithinOneLease(RedisServer server) throws Exception {
        String name = "killed:permits";
        String plain = "killed:plain";
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(server.uri()).build());
                RedisProbe probe = RedisProbe.connect(server.port())) {
            HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
            assertTrue(semaphore.trySetPermits(3));
            assertTrue(client.getSemaphore(plain).trySetPermits(1));
            try (ChildJvm holder = ChildJvm.start(ChildJvm.currentJava(), PermitHolder.class, "uri=" + server.uri(),
                    "semaphore=" + name, "permits=2", "plain=" + plain, "watchdog=" + WATCHDOG_MILLIS)) {
                String held = holder.awaitLine("HELD ", Duration.ofSeconds(60));
                assertNotNull(held, holder.output());
                List<String> ids = List.of(held.substring("HELD ".length()).split(","));
                assertEquals(2, ids.size());
                String mine = semaphore.tryAcquire(Duration.ZERO, Duration.ofMinutes(1));
                assertNotNull(mine, "the third permit");

                // While the holder lives, its watchdog renews its leases: they outlast several leases.
                long start = serverMillis(probe);
                assertTrue(Conditions.await(DEADLINE, () -> serverMillis(probe) > start + 3 * WATCHDOG_MILLIS));
                assertNull(semaphore.tryAcquire(Duration.ZERO, Duration.ofMinutes(1)), "the live holder keeps both");

                CompletableFuture<String> waiting = semaphore.tryAcquireAsync(DEADLINE, Duration.ofMinutes(1));
                holder.kill();
                long killed = serverMillis(probe);
                String taken = waiting.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                assertNotNull(taken, "a waiter got a permit of the killed holder");
                long after = serverMillis(probe) - killed;
                assertTrue(after <= WATCHDOG_MILLIS + 3_000, "within about one lease of the kill: " + after + " ms");
                assertTrue(Conditions.await(DEADLINE, () -> semaphore.availablePermits() == 1),
                        "the killed holder's other permit is free again");
                assertEquals(0, client.getSemaphore(plain).availablePermits(),
                        "the plain semaphore's permit went with the killed process, and does not come back");
                semaphore.release(taken);
                semaphore.release(mine);
                assertEquals(3, semaphore.availablePermits(), "no permit lost");
            }
        }
    }

    private static long serverMillis(RedisProbe probe) {
        List<?> time = (List<?>) probe.call("TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }
}
