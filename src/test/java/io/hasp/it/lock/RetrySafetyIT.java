package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import java.time.Duration;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replies lost after the server executed the command: a retried acquire must not count the hold
 * twice, a retried unlock must not throw for the real owner; and with Redis unreachable a
 * tryLock still returns false at its deadline.
 */
@ExtendWith(RedisServerExtension.class)
class RetrySafetyIT {

    private TcpProxy proxy;
    private HaspClient client;
    private RedisProbe probe;
    private String name;

    @BeforeEach
    void start(RedisServer server, TestInfo test) throws Exception {
        proxy = TcpProxy.start(server.port());
        client = Clients.hasp(proxy.uri(), seconds(30));
        probe = RedisProbe.connect(server.port());
        name = "retry:" + test.getTestMethod().orElseThrow().getName();
        client.commands().get("warm-up").get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        client.close();
        proxy.close();
        probe.close();
    }

    @Test
    void anAcquireWhoseReplyWasLostIsNotCountedTwice() throws Exception {
        HaspLock lock = client.getLock(name);
        String field = lock.currentOwner().field();

        int cut = cutConnections();
        proxy.dropNextReplyAndCut();
        lock.lock();
        assertEquals("1", probe.call("HGET", name, field), "first acquisition, reply lost");
        awaitCut(cut);

        cut = cutConnections();
        proxy.dropNextReplyAndCut();
        lock.lock();
        assertEquals("2", probe.call("HGET", name, field), "re-entry, reply lost");
        awaitCut(cut);
        assertEquals(2, lock.getHoldCount());

        lock.unlock();
        lock.unlock();
        assertEquals(0L, probe.call("EXISTS", name));
    }

    @Test
    void anUnlockWhoseReplyWasLostDoesNotThrowForTheOwner() throws Exception {
        HaspLock lock = client.getLock(name);
        String field = lock.currentOwner().field();
        lock.lock();
        lock.lock();

        int cut = cutConnections();
        proxy.dropNextReplyAndCut();
        lock.unlock();
        assertEquals("1", probe.call("HGET", name, field), "one hold given back, not two");
        awaitCut(cut);

        cut = cutConnections();
        proxy.dropNextReplyAndCut();
        lock.unlock();
        awaitCut(cut);
        assertEquals(0L, probe.call("EXISTS", name));
        assertFalse(lock.isLocked());
    }

    /** The connections the proxy accepted that are closed now. */
    private int cutConnections() {
        return proxy.acceptedCount() - proxy.connectionCount();
    }

    /**
     * The reply really was dropped: the proxy cut the connection it came on (a multiplexed one, which then
     * reconnects, or the direct connection of the blocking call's own thread, which the client discards).
     */
    private void awaitCut(int cutBefore) throws InterruptedException {
        Clients.await("the proxy to cut the connection of the dropped reply", seconds(20),
                () -> cutConnections() > cutBefore);
    }

    @Test
    void tryLockReturnsFalseAtItsDeadlineWhileRedisIsUnreachable() throws Exception {
        HaspLock lock = client.getLock(name);
        proxy.blackhole(true);
        try {
            CompletableFuture<Boolean> attempt = lock.tryLockAsync(1, -1, TimeUnit.SECONDS, lock.owner(1));
            long start = System.nanoTime();
            assertFalse(attempt.get(20, TimeUnit.SECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(900), "returned false early");
        } finally {
            proxy.blackhole(false);
        }
        Clients.await("no hold left behind once Redis is reachable", seconds(20),
                () -> Long.valueOf(0).equals(probe.call("EXISTS", name)));
    }

    @Test
    void aWatchdogHoldIsReportedLostWhenRedisStaysUnreachablePastTheLease() throws Exception {
        try (HaspClient shortLease = Clients.hasp(proxy.uri(), Duration.ofSeconds(1), Duration.ofMillis(300))) {
            HaspLock lock = shortLease.getLock(name);
            lock.lock();
            CompletableFuture<HoldEnd> end = lock.holdEnd();
            proxy.blackhole(true);
            try {
                assertEquals(HoldEnd.LOST, end.get(20, TimeUnit.SECONDS));
            } finally {
                proxy.blackhole(false);
            }
        }
    }
}
