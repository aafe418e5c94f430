package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A lock granted by Redis at the moment its caller gives up (interrupt, cancel) is released
 * again: the proxy delays the server's replies, so the acquire has run on the server while its
 * caller is still waiting for the answer. Afterwards the key is gone and the client holds nothing.
 */
@ExtendWith(RedisServerExtension.class)
class LateGrantIT {

    private static final Duration SLACK = Duration.ofSeconds(60);

    private TcpProxy proxy;
    private HaspClient client;
    private RedisProbe probe;
    private String name;

    @BeforeEach
    void start(RedisServer server, TestInfo test) throws Exception {
        proxy = TcpProxy.start(server.port());
        // The delayed replies must arrive, not time out; the 2 min watchdog lease outlives the test.
        client = HaspClient.create(HaspConfig.builder().uri(proxy.uri()).commandTimeout(Duration.ofSeconds(20))
                .watchdogLease(Duration.ofMinutes(2)).build());
        probe = RedisProbe.connect(server.port());
        name = "late:" + test.getTestMethod().orElseThrow().getName();
        client.commands().ping().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        proxy.delay(Duration.ZERO);
        client.close();
        proxy.close();
        probe.close();
    }

    private void awaitGranted(String field) throws InterruptedException {
        await("Redis granted the lock", SLACK, () -> "1".equals(probe.call("HGET", name, field)));
    }

    private void awaitReleasedAgain() throws InterruptedException {
        await("the late grant released again", SLACK, () -> Long.valueOf(0).equals(probe.call("EXISTS", name)));
        await("no hold left in the client", SLACK, () -> ClientInternals.lockService(client).heldLocks() == 0);
    }

    @Test
    void aThreadInterruptedAsItsLockIsGrantedGivesItBack() throws Exception {
        HaspLock lock = client.getLock(name);
        proxy.delay(Duration.ofSeconds(2));
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        AtomicReference<LockOwner> owner = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            owner.set(lock.currentOwner());
            try {
                lock.lockInterruptibly();
                outcome.set(new AssertionError("acquired although interrupted"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "late-grant-waiter");
        waiter.start();
        await("the waiter started", SLACK, () -> owner.get() != null);
        awaitGranted(owner.get().field());
        waiter.interrupt();
        waiter.join(SLACK.toMillis());
        assertFalse(waiter.isAlive());
        assertEquals(InterruptedException.class, outcome.get().getClass(), String.valueOf(outcome.get()));
        awaitReleasedAgain();
        assertFalse(lock.isHeldBy(owner.get()));
    }

    @Test
    void aCancelledAsyncAcquisitionWhoseLockIsGrantedGivesItBack() throws Exception {
        HaspLock lock = client.getLock(name);
        LockOwner owner = lock.owner(42);
        proxy.delay(Duration.ofSeconds(2));
        CompletableFuture<Boolean> attempt = lock.tryLockAsync(Duration.ofSeconds(60), owner);
        awaitGranted(owner.field());
        assertTrue(attempt.cancel(false), "cancelled before the reply arrived");
        awaitReleasedAgain();
        proxy.delay(Duration.ZERO);
        assertFalse(lock.isHeldBy(owner));
        assertTrue(lock.tryLock(), "free for the next caller");
        lock.unlock();
    }
}
