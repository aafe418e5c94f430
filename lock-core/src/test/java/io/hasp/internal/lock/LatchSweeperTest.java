package io.hasp.internal.lock;

import static io.hasp.internal.lock.ServerView.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.lock.HaspLock;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The latches of confirmed unlocks are deleted in batches, not one command per unlock, and none is left. */
@ExtendWith(RedisServerExtension.class)
class LatchSweeperTest {

    private static final Duration SLACK = Duration.ofSeconds(30);

    private final RedisServer server;
    private ServerView view;
    private HaspClient client;
    private LockService service;

    LatchSweeperTest(RedisServer server) {
        this.server = server;
    }

    @BeforeEach
    void start() throws Exception {
        view = new ServerView(server);
        // A fine timer: the sweeps' batches come from their delay, not from a coarse tick.
        client = HaspClient.create(HaspConfig.builder().uri(server.uri()).timerTick(Duration.ofMillis(1)).build());
        client.commands().ping().get(30, TimeUnit.SECONDS);
        HaspConfig config = client.config();
        service = new LockService("me", ClientInternals.topology(client), ClientInternals.timer(client), Duration.ofMinutes(2),
                config.timerTick(), config.commandTimeout());
    }

    @AfterEach
    void stop() {
        service.close();
        client.close();
        view.close();
    }

    private List<?> latches() {
        return (List<?>) view.call("KEYS", "redisson_unlock_latch:*");
    }

    @Test
    void concurrentUnlocksShareDeletions() throws Exception {
        int locks = 200;
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (int i = 0; i < locks; i++) {
            pending.add(Locks.reentrant(service, "job-" + i).lockAsync(service.owner(1)));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        long delsBefore = view.commandCalls("del");
        pending.clear();
        for (int i = 0; i < locks; i++) {
            pending.add(Locks.reentrant(service, "job-" + i).unlockAsync(service.owner(1)));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        await("every latch deleted", SLACK, () -> latches().isEmpty());
        // Each unlock script deletes its lock's hash with a DEL of its own: count only the sweeper's.
        long sweeps = view.commandCalls("del") - delsBefore - locks;
        assertTrue(sweeps >= 1 && sweeps <= locks / 4, sweeps + " DEL commands for " + locks + " latches");
        assertEquals(0, service.heldLocks());
    }

    /**
     * A process that releases a hot lock one hand-off at a time frees it every few milliseconds: its latches wait
     * for each other instead of costing a command each (one DEL per unlock before, a round trip the server paid
     * more for than for the release itself).
     */
    @Test
    void unlocksOneAfterAnotherShareDeletions() throws Exception {
        int unlocks = 40;
        HaspLock lock = Locks.reentrant(service, "stock");
        long delsBefore = view.commandCalls("del");
        for (int i = 0; i < unlocks; i++) {
            lock.lockAsync(service.owner(1)).get(30, TimeUnit.SECONDS);
            lock.unlockAsync(service.owner(1)).get(30, TimeUnit.SECONDS);
        }
        await("every latch deleted", SLACK, () -> latches().isEmpty());
        long sweeps = view.commandCalls("del") - delsBefore - unlocks;
        assertTrue(sweeps >= 1 && sweeps <= unlocks / 8, sweeps + " DEL commands for " + unlocks + " latches");
    }

    @Test
    void closingTheServiceDeletesThePendingLatches() throws Exception {
        HaspLock lock = Locks.reentrant(service, "report");
        lock.lockAsync(service.owner(1)).get(30, TimeUnit.SECONDS);
        lock.unlockAsync(service.owner(1)).get(30, TimeUnit.SECONDS);
        service.close();
        await("the latch deleted", SLACK, () -> latches().isEmpty());
    }
}
