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
        client = HaspClient.create(server.uri());
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

    @Test
    void closingTheServiceDeletesThePendingLatches() throws Exception {
        HaspLock lock = Locks.reentrant(service, "report");
        lock.lockAsync(service.owner(1)).get(30, TimeUnit.SECONDS);
        lock.unlockAsync(service.owner(1)).get(30, TimeUnit.SECONDS);
        service.close();
        await("the latch deleted", SLACK, () -> latches().isEmpty());
    }
}
