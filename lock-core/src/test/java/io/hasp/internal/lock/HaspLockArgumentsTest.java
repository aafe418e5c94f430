package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad arguments fail fast with an IllegalArgumentException naming the argument, and send nothing:
 * the real server's log of every command shows none from this client after its connection was set up.
 */
@ExtendWith(RedisServerExtension.class)
class HaspLockArgumentsTest {

    private static final String CLIENT_NAME = "arguments-test";

    private final HaspClient client;
    private final ServerView view;
    private final LockService service;
    private final HaspLock lock;
    private final LockOwner owner;

    HaspLockArgumentsTest(RedisServer server) throws Exception {
        client = HaspClient.create(HaspConfig.builder().uri(server.uri()).clientName(CLIENT_NAME).build());
        client.commands().ping().get(30, TimeUnit.SECONDS);
        view = new ServerView(server);
        client.commands().ping().get(30, TimeUnit.SECONDS);
        assertEquals(1, view.commandsOf(CLIENT_NAME).size(), "the server log sees this client's commands");
        view.call("SLOWLOG", "RESET");
        service = new LockService("client", ClientInternals.topology(client), ClientInternals.timer(client),
                Duration.ofSeconds(30), Duration.ofMillis(10), Duration.ofSeconds(3));
        lock = Locks.reentrant(service, "orders");
        owner = lock.owner(7);
    }

    @AfterEach
    void nothingWasSent() {
        try {
            assertEquals(List.of(), view.commandsOf(CLIENT_NAME));
        } finally {
            service.close();
            client.close();
            view.close();
        }
    }

    private static void rejects(String argument, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(argument + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("(expected: "), e.getMessage());
    }

    @Test
    void lockNames() {
        rejects("name", () -> Locks.reentrant(service, null));
        rejects("name", () -> Locks.reentrant(service, ""));
    }

    @Test
    void leaseTimes() {
        rejects("leaseTime", () -> lock.lock(0, TimeUnit.SECONDS));
        rejects("leaseTime", () -> lock.lock(-5, TimeUnit.SECONDS));
        rejects("leaseTime", () -> lock.lock(9, TimeUnit.MILLISECONDS));
        rejects("leaseTime", () -> lock.lock(Duration.ZERO));
        rejects("leaseTime", () -> lock.lock(Duration.ofMillis(-1)));
        rejects("leaseTime", () -> lock.lock((Duration) null));
        rejects("leaseTime", () -> lock.tryLock(1, -2, TimeUnit.SECONDS));
        rejects("leaseTime", () -> lock.lockInterruptibly(500, TimeUnit.MICROSECONDS));
        rejects("leaseTime", () -> lock.lockAsync(-7, TimeUnit.SECONDS, owner));
        rejects("leaseTime", () -> lock.tryLockAsync(1, 0, TimeUnit.SECONDS, owner));
        rejects("leaseTime", () -> lock.tryLockAsync(Duration.ofSeconds(1), Duration.ofNanos(1), owner));
    }

    @Test
    void leaseMessageStatesTheRule() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> lock.lock(-5, TimeUnit.SECONDS));
        assertEquals("leaseTime: -5 (expected: > 0 or -1 for the watchdog)", e.getMessage());
    }

    @Test
    void waitTimes() {
        rejects("waitTime", () -> lock.tryLock(-1, TimeUnit.SECONDS));
        rejects("waitTime", () -> lock.tryLock(-1, 10, TimeUnit.SECONDS));
        rejects("waitTime", () -> lock.tryLock(Duration.ofSeconds(-1)));
        rejects("waitTime", () -> lock.tryLock(null, Duration.ofSeconds(1)));
        rejects("waitTime", () -> lock.tryLockAsync(-3, -1, TimeUnit.SECONDS, owner));
    }

    @Test
    void unitsAndOwners() {
        rejects("unit", () -> lock.tryLock(1, null));
        rejects("unit", () -> lock.lock(1, null));
        rejects("owner", () -> lock.lockAsync(null));
        rejects("owner", () -> lock.tryLockAsync((LockOwner) null));
        rejects("owner", () -> lock.unlockAsync(null));
        rejects("owner", () -> lock.isHeldByAsync(null));
        rejects("owner", () -> lock.holdEnd(null));
        rejects("clientId", () -> LockOwner.of("", 1));
    }

    @Test
    void conditionsAreNotSupported() {
        assertThrows(UnsupportedOperationException.class, lock::newCondition);
    }

    @Test
    void ownerFieldIsClientIdColonHolderId() {
        assertEquals("client:7", owner.field());
        assertEquals(LockOwner.of("client", 7), owner);
    }
}
