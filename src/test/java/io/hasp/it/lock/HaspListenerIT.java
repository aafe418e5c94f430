package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.HaspListener;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The events a {@link HaspListener} hears from a client working against a real server: acquisitions (granted,
 * timed out, cancelled), hold ends (released, lost, expired) with their durations, failed unlocks, watchdog
 * renewals, and a connection lost and back; a listener that throws changes nothing.
 */
@ExtendWith(RedisServerExtension.class)
class HaspListenerIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    /** One event, as text, with its duration where it has one. */
    record Event(String what, String kind, String lock, long nanos, Object detail) {
    }

    /** Records every event. */
    static final class Recorder implements HaspListener {
        final List<Event> events = new CopyOnWriteArrayList<>();

        @Override
        public Object acquireStarted(String kind, String lock) {
            Event started = new Event("started", kind, lock, 0, null);
            events.add(started);
            return started;
        }

        @Override
        public void acquired(String kind, String lock, long waitNanos, Object started) {
            assertEquals(lock, ((Event) started).lock(), "the start comes back with the end");
            events.add(new Event("acquired", kind, lock, waitNanos, null));
        }

        @Override
        public void acquireFailed(String kind, String lock, long waitNanos, Throwable cause, Object started) {
            assertEquals(lock, ((Event) started).lock(), "the start comes back with the end");
            events.add(new Event("failed", kind, lock, waitNanos, cause));
        }

        @Override
        public void holdEnded(String kind, String lock, HoldEnd how, long heldNanos) {
            events.add(new Event("ended", kind, lock, heldNanos, how));
        }

        @Override
        public Object releaseStarted(String kind, String lock) {
            Event started = new Event("unlocking", kind, lock, 0, null);
            events.add(started);
            return started;
        }

        @Override
        public void released(String kind, String lock, long nanos, Throwable cause, Object started) {
            assertEquals(lock, ((Event) started).lock(), "the start comes back with the end");
            events.add(new Event("released", kind, lock, nanos, cause));
        }

        @Override
        public void unlockFailed(String kind, String lock, Throwable cause) {
            events.add(new Event("unlockFailed", kind, lock, 0, cause));
        }

        @Override
        public void renewed(int holds, int lost, long nanos) {
            events.add(new Event("renewed", null, null, nanos, holds + "/" + lost));
        }

        @Override
        public void connectionChanged(String connection, boolean up) {
            events.add(new Event(up ? "up" : "down", null, connection, 0, null));
        }

        List<Event> of(String what, String lock) {
            return events.stream().filter(e -> e.what.equals(what) && (lock == null || lock.equals(e.lock))).toList();
        }
    }

    private RedisServer server;
    private Recorder recorder;
    private HaspClient client;
    private RedisProbe probe;
    private String name;

    @BeforeEach
    void start(RedisServer redis, TestInfo test) {
        server = redis;
        recorder = new Recorder();
        client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).watchdogLease(Duration.ofMillis(900))
                .listener(recorder).build());
        probe = RedisProbe.connect(redis.port());
        name = "listener:" + test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void stop() {
        client.close();
        probe.close();
    }

    @Test
    void aGrantAndItsReleaseAreHeardWithTheirDurations() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        lock.lock();
        lock.unlock();
        assertEquals(List.of(), recorder.of("ended", name), "a re-entered hold ends once, with its last level");
        lock.unlock();
        assertEquals(2, recorder.of("started", name).size());
        List<Event> acquired = recorder.of("acquired", name);
        assertEquals(2, acquired.size());
        assertEquals("reentrant", acquired.get(0).kind());
        assertTrue(acquired.get(0).nanos() > 0, String.valueOf(acquired));
        await("the hold's end heard", SLACK, () -> recorder.of("ended", name).size() == 1);
        Event ended = recorder.of("ended", name).get(0);
        assertEquals(HoldEnd.RELEASED, ended.detail());
        assertTrue(ended.nanos() > 0);
        assertEquals(List.of(), recorder.of("failed", name));
        await("both unlocks' ends heard", SLACK, () -> recorder.of("released", name).size() == 2);
        for (Event released : recorder.of("released", name)) {
            assertEquals("reentrant", released.kind());
            assertEquals(null, released.detail(), "given back");
            assertTrue(released.nanos() > 0, String.valueOf(released));
        }

        client.getFairLock(name + ":fair").lock();
        client.getFairLock(name + ":fair").unlock();
        assertEquals("fair", recorder.of("acquired", name + ":fair").get(0).kind());
    }

    @Test
    void waitsThatEndWithoutTheLockAreHeardWithWhy() throws Exception {
        try (HaspClient other = HaspClient.create(server.uri())) {
            HaspLock held = other.getLock(name);
            held.lock();
            HaspLock lock = client.getLock(name);
            assertFalse(lock.tryLock(Duration.ofMillis(200), Duration.ofSeconds(10)));
            Event timedOut = recorder.of("failed", name).get(0);
            assertNull(timedOut.detail(), "its wait time passed");
            assertTrue(timedOut.nanos() >= TimeUnit.MILLISECONDS.toNanos(200), String.valueOf(timedOut));

            CompletableFuture<Void> waiting = lock.lockAsync(lock.owner(7));
            waiting.cancel(false);
            await("the cancelled wait heard", SLACK, () -> recorder.of("failed", name).size() == 2);
            assertInstanceOf(java.util.concurrent.CancellationException.class, recorder.of("failed", name).get(1).detail());
            held.unlock();
        }
    }

    @Test
    void lostAndExpiredHoldsAndFailedUnlocksAreHeard() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        probe.call("DEL", name);
        await("the watchdog found the hold gone", SLACK, () -> recorder.of("ended", name).size() == 1);
        assertEquals(HoldEnd.LOST, recorder.of("ended", name).get(0).detail());
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertEquals(1, recorder.of("unlockFailed", name).size());
        assertInstanceOf(IllegalMonitorStateException.class, recorder.of("unlockFailed", name).get(0).detail());
        assertEquals(1, recorder.of("unlocking", name).size(), "the unlock's start is heard");
        assertInstanceOf(IllegalMonitorStateException.class, recorder.of("released", name).get(0).detail(),
                "and its end, with why it failed");

        HaspLock leased = client.getLock(name + ":leased");
        assertTrue(leased.tryLock(Duration.ZERO, Duration.ofMillis(100)));
        await("the lease's end heard", SLACK, () -> recorder.of("ended", name + ":leased").size() == 1);
        assertEquals(HoldEnd.EXPIRED, recorder.of("ended", name + ":leased").get(0).detail());
    }

    @Test
    void watchdogRenewalsAreHeard() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lockAsync(lock.owner(1)).get(10, TimeUnit.SECONDS);
        lock.lockAsync(lock.owner(2)).thenRun(() -> { }).getNow(null);
        await("two renewal calls", SLACK, () -> recorder.of("renewed", null).size() >= 2);
        Event renewal = recorder.of("renewed", null).get(0);
        assertTrue(renewal.nanos() > 0);
        assertTrue(((String) renewal.detail()).endsWith("/0"), "none lost: " + renewal.detail());
        lock.unlockAsync(lock.owner(1)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aConnectionLostAndBackIsHeard() throws Exception {
        Recorder heard = new Recorder();
        try (TcpProxy proxy = TcpProxy.start(server.port());
                HaspClient proxied = HaspClient.create(HaspConfig.builder().uri(proxy.uri()).listener(heard).build())) {
            proxied.commands().ping().get(10, TimeUnit.SECONDS);
            proxy.cutAll();
            await("down, then up again", SLACK, () -> !heard.of("down", null).isEmpty() && !heard.of("up", null).isEmpty());
            assertTrue(heard.of("down", null).get(0).lock().contains(String.valueOf(proxy.port())),
                    "the connection is named as in the logs: " + heard.events);
        }
    }

    @Test
    void aListenerThatThrowsChangesNothing() throws Exception {
        HaspListener broken = new HaspListener() {
            @Override
            public void acquired(String kind, String lock, long waitNanos, Object started) {
                throw new IllegalStateException("the listener's own bug");
            }

            @Override
            public void holdEnded(String kind, String lock, HoldEnd how, long heldNanos) {
                throw new IllegalStateException("the listener's own bug");
            }
        };
        try (HaspClient clumsy = HaspClient.create(HaspConfig.builder().uri(server.uri()).listener(broken).build())) {
            HaspLock lock = clumsy.getLock(name);
            lock.lock();
            assertTrue(lock.isHeldByCurrentThread());
            lock.unlock();
            assertFalse(lock.isLocked());
        }
    }
}
