package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One client holds 10,000 watchdog locks at once: the single renewal task keeps every one alive
 * across several renewal periods with batched script calls, and they all release cleanly.
 */
@ExtendWith(RedisServerExtension.class)
class WatchdogScaleIT {

    private static final int LOCKS = 10_000;

    @Test
    void tenThousandWatchdogLocksStayAliveWithBatchedRenewals(RedisServer server) throws Exception {
        // Short for a watchdog (renewed every 2 s), yet longer than 10,000 acquisitions take on a
        // slow CI machine with Netty's paranoid leak detection.
        Duration lease = Duration.ofSeconds(6);
        try (HaspClient client = Clients.hasp(server.uri(), lease, Duration.ofSeconds(10)); RedisProbe probe = RedisProbe.connect(server.port())) {
            List<HaspLock> locks = new ArrayList<>(LOCKS);
            List<CompletableFuture<Void>> acquired = new ArrayList<>(LOCKS);
            LockOwner owner = client.getLock("scale:0").owner(1);
            for (int i = 0; i < LOCKS; i++) {
                HaspLock lock = client.getLock("scale:" + i);
                locks.add(lock);
                acquired.add(lock.lockAsync(owner));
            }
            CompletableFuture.allOf(acquired.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            List<CompletableFuture<HoldEnd>> ends = new ArrayList<>(LOCKS);
            for (HaspLock lock : locks) {
                ends.add(lock.holdEnd(owner));
            }

            long scripts0 = probe.commandCalls("evalsha");
            long pexpires0 = probe.commandCalls("pexpire");
            // Four full renewal passes of 10,000 locks: every lock outlives its 6 s lease.
            Clients.await("four renewal passes", seconds(60),
                    () -> probe.commandCalls("pexpire") - pexpires0 >= 4L * LOCKS);
            long scripts = probe.commandCalls("evalsha") - scripts0;
            long renewals = probe.commandCalls("pexpire") - pexpires0;

            assertEquals((long) LOCKS, existing(probe), "every lock is still alive");
            assertTrue(ends.stream().noneMatch(CompletableFuture::isDone), "no hold reported lost");
            // One script call per batch of up to 100 locks: about renewals / 100 calls, plus at most
            // two passes' worth counted on one side of the window and not the other. Without
            // batching there would be one call per renewal.
            assertTrue(scripts <= renewals / 100 + 2 * (LOCKS / 100),
                    renewals + " lease renewals took " + scripts + " script calls: not batched by ~100");

            // Released in slices: an unlock stops its lock's renewal as it starts, so a burst of
            // 10,000 unlocks queued behind each other on a loaded machine could outlast a lease.
            for (int start = 0; start < LOCKS; start += 500) {
                List<CompletableFuture<Void>> released = new ArrayList<>(500);
                for (HaspLock lock : locks.subList(start, start + 500)) {
                    released.add(lock.unlockAsync(owner));
                }
                CompletableFuture.allOf(released.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            }
            assertEquals(0L, existing(probe));
            for (CompletableFuture<HoldEnd> end : ends) {
                assertEquals(HoldEnd.RELEASED, end.getNow(null));
            }
            assertFalse(locks.get(0).isLocked());
        }
    }

    private static long existing(RedisProbe probe) {
        long count = 0;
        for (int start = 0; start < LOCKS; start += 1_000) {
            String[] command = new String[1_001];
            command[0] = "EXISTS";
            for (int i = 0; i < 1_000; i++) {
                command[i + 1] = "scale:" + (start + i);
            }
            count += (Long) probe.call(command);
        }
        return count;
    }
}
