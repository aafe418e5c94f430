package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A JVM holding a watchdog lock dies by SIGKILL: the lock frees itself after the lease, not before. */
@ExtendWith(RedisServerExtension.class)
class KilledHolderIT {

    @Test
    void anotherClientGetsTheLockOfAKilledHolderAfterTheWatchdogLease(RedisServer server) throws Exception {
        String name = "killed:lock";
        try (HaspClient client = Clients.hasp(server.uri(), seconds(30));
                ChildJvm holder = ChildJvm.start(ChildJvm.currentJava(), LockWorker.class, "mode=hold",
                        "uri=" + server.uri(), "lock=" + name, "watchdog=1500")) {
            assertNotNull(holder.awaitLine("LOCKED", Duration.ofSeconds(60)), holder.output());
            HaspLock lock = client.getLock(name);

            // While the holder lives, its watchdog keeps the 1.5 s lease going: watch it renew three times.
            long[] last = {lock.remainTimeToLive()};
            int[] renewals = {0};
            Clients.await("three renewals by the holder's watchdog", seconds(30), () -> {
                long ttl = lock.remainTimeToLive();
                assertTrue(ttl > 0, "the live holder's lock expired: " + ttl);
                if (ttl > last[0]) {
                    renewals[0]++;
                }
                last[0] = ttl;
                return renewals[0] >= 3;
            });
            assertFalse(lock.tryLock(), "held by the live child");

            holder.kill();
            assertTrue(lock.isLocked(), "the lease outlives the holder's death for a moment");
            assertFalse(lock.tryLock(), "not before the lease has run out");
            assertTrue(lock.tryLock(20, TimeUnit.SECONDS), "after the lease has run out");
            assertTrue(lock.isHeldByCurrentThread());
            lock.unlock();
        }
    }
}
