package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.RedisCommands;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The kind-taking LockService methods reject bad arguments naming them, before sending anything. */
class LockServiceArgumentsTest {

    private final List<String> calls = new ArrayList<>();
    private final ManualTimer timer = new ManualTimer();
    private final LockService service = new LockService("client",
            new PartsTopology(recording(RedisCommands.class), recording(PubSub.class)), timer, Duration.ofSeconds(30), Duration.ofMillis(10), Duration.ofSeconds(3));
    private final LockKind kind = ReentrantKind.INSTANCE;
    private final LockOwner owner = LockOwner.of("client", 7);

    private <T> T recording(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            calls.add(method.getName());
            throw new AssertionError("nothing may be sent: " + method.getName());
        }));
    }

    @AfterEach
    void nothingWasSent() {
        assertEquals(List.of(), calls);
    }

    private static void rejects(String argument, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(argument + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("(expected: "), e.getMessage());
    }

    @Test
    void tryAcquire() {
        rejects("kind", () -> service.tryAcquire(null, "orders", owner, -1, -1));
        rejects("name", () -> service.tryAcquire(kind, "", owner, -1, -1));
        rejects("owner", () -> service.tryAcquire(kind, "orders", null, -1, -1));
        rejects("leaseMillis", () -> service.tryAcquire(kind, "orders", owner, 0, -1));
        rejects("leaseMillis", () -> service.tryAcquire(kind, "orders", owner, 9, -1));
        rejects("waitNanos", () -> service.tryAcquire(kind, "orders", owner, -1, -2));
    }

    @Test
    void releaseForceReleaseHoldEndAndCounts() {
        rejects("kind", () -> service.release(null, "orders", owner));
        rejects("name", () -> service.release(kind, null, owner));
        rejects("owner", () -> service.release(kind, "orders", null));
        rejects("kind", () -> service.forceRelease(null, "orders"));
        rejects("name", () -> service.forceRelease(kind, ""));
        rejects("kind", () -> service.holdEnd(null, "orders", owner));
        rejects("owner", () -> service.holdEnd(kind, "orders", null));
        rejects("kind", () -> service.heldLocks(null));
    }

    @Test
    void ownersOfThisClient() {
        assertEquals("client:7", service.owner(7).field());
        assertEquals(service.currentOwner(), service.currentOwner());
        assertEquals(HoldEnd.RELEASED, service.holdEnd(kind, "orders", owner).join());
        assertEquals(0, service.heldLocks(kind));
    }
}
