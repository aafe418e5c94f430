package io.hasp.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * hasp's meters against a real server: waits of a contended lock, holds and their ends, a lost hold counted once
 * with its cause, failed unlocks, renewals, reconnects, the gauges of holds and of commands in flight, lock names as tags only when asked,
 * nothing recorded without the binder, the names an operator queries in a Prometheus scrape, and an
 * observation per acquisition with the lock's name on it.
 */
@ExtendWith(RedisServerExtension.class)
class HaspMetricsIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private RedisServer server;
    private PrometheusMeterRegistry registry;
    private HaspMetrics metrics;
    private HaspClient client;
    private RedisProbe probe;
    private String name;

    @BeforeEach
    void start(RedisServer redis, TestInfo test) {
        server = redis;
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metrics = HaspMetrics.builder().clientName("orders").build();
        client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).watchdogLease(Duration.ofMillis(900))
                .listener(metrics).build());
        metrics.bindTo(registry);
        metrics.watch(client);
        probe = RedisProbe.connect(redis.port());
        name = "metrics:" + test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void stop() {
        client.close();
        probe.close();
        registry.close();
    }

    private static long count(MeterRegistry registry, String meter, String... tags) {
        Timer timer = registry.find(meter).tags(tags).timer();
        if (timer != null) {
            return timer.count();
        }
        Counter counter = registry.find(meter).tags(tags).counter();
        return counter == null ? 0 : (long) counter.count();
    }

    @Test
    void aContendedLocksWaitsAndHoldsAreRecorded() throws Exception {
        HaspLock lock = client.getLock(name);
        LockOwner first = lock.owner(1);
        LockOwner second = lock.owner(2);
        lock.lockAsync(first).get(10, TimeUnit.SECONDS);
        assertEquals(1.0, registry.get("hasp.locks.held").tag("client", "orders").gauge().value());
        CompletableFuture<Void> waiting = lock.lockAsync(second);
        lock.unlockAsync(first).get(10, TimeUnit.SECONDS);
        waiting.get(10, TimeUnit.SECONDS);
        lock.unlockAsync(second).get(10, TimeUnit.SECONDS);

        Timer acquire = registry.get("hasp.lock.acquire").tags("client", "orders", "kind", "reentrant", "outcome", "acquired")
                .timer();
        assertEquals(2, acquire.count());
        assertTrue(acquire.max(TimeUnit.NANOSECONDS) > 0);
        assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.lock.held", "end", "released") == 2));
        assertEquals(0.0, registry.get("hasp.locks.held").gauge().value());
        assertNull(registry.find("hasp.lock.acquire").tagKeys("lock").timer(), "no lock name as a tag by default");
    }

    @Test
    void theGaugeOfCommandsInFlightCountsWhatTheServerHasNotAnsweredYet() throws Exception {
        Gauge inFlight = registry.get("hasp.commands.in.flight").tag("client", "orders").gauge();
        assertTrue(Conditions.await(SLACK, () -> inFlight.value() == 0.0), "nothing in flight on an idle client");
        List<HaspLock> locks = List.of(client.getLock(name + ":1"), client.getLock(name + ":2"), client.getLock(name + ":3"));
        List<CompletableFuture<Void>> acquires = new ArrayList<>();
        probe.call("CLIENT", "PAUSE", "30000", "WRITE");   // the lock scripts wait; the probe's reads do not
        try {
            for (HaspLock lock : locks) {
                acquires.add(lock.lockAsync(lock.owner(1)));
            }
            assertTrue(Conditions.await(SLACK, () -> inFlight.value() >= 3.0),
                    "the three acquisitions are in flight: " + inFlight.value());
        } finally {
            probe.call("CLIENT", "UNPAUSE");
        }
        for (int i = 0; i < locks.size(); i++) {
            acquires.get(i).get(10, TimeUnit.SECONDS);
            locks.get(i).unlockAsync(locks.get(i).owner(1)).get(10, TimeUnit.SECONDS);
        }
        assertTrue(Conditions.await(SLACK, () -> inFlight.value() == 0.0), "every reply arrived: " + inFlight.value());
    }

    @Test
    void aLostHoldCountsOnceWithItsCauseAndItsUnlockAsAnError() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        probe.call("DEL", name);
        assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.lock.lost", "cause", "lost") == 1));
        assertThrows(HoldLostException.class, lock::unlock);
        assertEquals(1, count(registry, "hasp.lock.unlock.errors", "error", "hold_lost"));
        assertEquals(1, count(registry, "hasp.lock.lost", "cause", "lost"), "counted once");
        assertEquals(1, client.lostHolds());
        assertEquals(1, count(registry, "hasp.lock.held", "end", "lost"));

        HaspLock leased = client.getLock(name + ":leased");
        assertTrue(leased.tryLock(Duration.ZERO, Duration.ofMillis(100)));
        assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.lock.lost", "cause", "expired") == 1));
        assertThrows(IllegalMonitorStateException.class, () -> client.getLock(name + ":never").unlock());
        assertEquals(1, count(registry, "hasp.lock.unlock.errors", "error", "not_held"));
    }

    @Test
    void waitsThatEndWithoutTheLockAreRecordedWithTheirOutcome() throws Exception {
        try (HaspClient other = HaspClient.create(server.uri())) {
            HaspLock held = other.getLock(name);
            held.lock();
            HaspLock lock = client.getLock(name);
            assertFalse(lock.tryLock(Duration.ofMillis(100), Duration.ofSeconds(5)));
            assertEquals(1, count(registry, "hasp.lock.acquire", "outcome", "timeout"));
            CompletableFuture<Void> cancelled = lock.lockAsync(lock.owner(3));
            cancelled.cancel(false);
            assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.lock.acquire", "outcome", "cancelled") == 1));
            held.unlock();
        }
    }

    @Test
    void renewalsAndReconnectsAreCounted() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.lock.renewals") >= 2));
        assertTrue(registry.get("hasp.lock.renewed.holds").counter().count() >= 2);
        lock.unlock();

        HaspMetrics proxiedMetrics = HaspMetrics.builder().clientName("proxied").build();
        try (TcpProxy proxy = TcpProxy.start(server.port());
                HaspClient proxied = HaspClient.create(HaspConfig.builder().uri(proxy.uri()).listener(proxiedMetrics).build())) {
            proxiedMetrics.bindTo(registry);
            proxied.commands().ping().get(10, TimeUnit.SECONDS);
            proxy.cutAll();
            assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.connection.reconnects", "client", "proxied") >= 1));
            assertTrue(count(registry, "hasp.connection.losses", "client", "proxied") >= 1);
        }
    }

    @Test
    void lockNamesAreTagsOnlyForTheNamesTheApplicationChose() throws Exception {
        SimpleMeterRegistry named = new SimpleMeterRegistry();
        HaspMetrics chosen = HaspMetrics.builder().lockNames(Set.of("report")::contains).build();
        try (HaspClient tagged = HaspClient.create(HaspConfig.builder().uri(server.uri()).listener(chosen).build())) {
            chosen.bindTo(named);
            tagged.getLock("report").lock();
            tagged.getLock("report").unlock();
            tagged.getLock(name).lock();
            tagged.getLock(name).unlock();
            assertEquals(1, named.get("hasp.lock.acquire").tags("lock", "report").timer().count());
            assertEquals(1, named.get("hasp.lock.acquire").tags("lock", "other").timer().count());
            assertNull(named.find("hasp.lock.acquire").tags("lock", name).timer());
        }
    }

    @Test
    void nothingIsRecordedWithoutTheBinder() throws Exception {
        SimpleMeterRegistry untouched = new SimpleMeterRegistry();
        HaspMetrics unbound = HaspMetrics.builder().build();
        try (HaspClient plain = HaspClient.create(server.uri());
                HaspClient listening = HaspClient.create(HaspConfig.builder().uri(server.uri()).listener(unbound).build())) {
            plain.getLock(name).lock();
            plain.getLock(name).unlock();
            listening.getLock(name).lock();   // events before bindTo are not counted, and do no harm
            listening.getLock(name).unlock();
        }
        assertEquals(List.of(), untouched.getMeters());
        unbound.bindTo(untouched);
        assertEquals(0, count(untouched, "hasp.lock.acquire"));
    }

    @Test
    void aPrometheusScrapeShowsTheNamesAnOperatorQueries() throws Exception {
        HaspLock lock = client.getLock(name);
        lock.lock();
        probe.call("DEL", name);
        assertTrue(Conditions.await(SLACK, () -> count(registry, "hasp.lock.lost") == 1));
        assertThrows(HoldLostException.class, lock::unlock);
        client.getLock(name).lock();
        client.getLock(name).unlock();
        String scrape = registry.scrape();
        for (String series : List.of("hasp_lock_acquire_seconds_bucket{client=\"orders\",kind=\"reentrant\",outcome=\"acquired\",le=",
                "hasp_lock_held_seconds_count{client=\"orders\",end=\"released\",kind=\"reentrant\"}",
                "hasp_lock_lost_total{cause=\"lost\",client=\"orders\",kind=\"reentrant\"} 1.0",
                "hasp_lock_unlock_errors_total{client=\"orders\",error=\"hold_lost\",kind=\"reentrant\"} 1.0",
                "hasp_locks_held{client=\"orders\"} 0.0", "hasp_commands_in_flight{client=\"orders\"} ",
                "hasp_lock_renewals_seconds_count{client=\"orders\"}",
                "hasp_connection_reconnects_total{client=\"orders\"} 0.0", "hasp_topology_changes_total{client=\"orders\"} 0.0")) {
            assertTrue(scrape.contains(series), "the scrape has " + series + ":\n" + scrape);
        }
    }

    @Test
    void eachAcquisitionAndUnlockIsObservedWithTheLockNameOnTheSpanOnly() throws Exception {
        ObservationRegistry observations = ObservationRegistry.create();
        List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }
        });
        HaspMetrics traced = HaspMetrics.builder().observations(observations).build();
        try (HaspClient tracedClient = HaspClient.create(HaspConfig.builder().uri(server.uri()).listener(traced).build())) {
            tracedClient.getFairLock(name).lock();
            tracedClient.getFairLock(name).unlock();
        }
        assertEquals(List.of("hasp.lock.attempt", "hasp.lock.acquire", "hasp.lock.release"),
                stopped.stream().map(Observation.Context::getName).toList(), "the acquire script, the acquisition, the unlock");
        Observation.Context context = stopped.get(1);
        assertEquals("hasp.lock.acquire", context.getName());
        assertEquals(context, stopped.get(0).getParentObservation().getContextView(), "the script under its acquisition");
        assertEquals(name, stopped.get(2).getHighCardinalityKeyValue("lock").getValue());
        assertEquals("released", stopped.get(2).getLowCardinalityKeyValue("outcome").getValue());
        assertEquals("fair", context.getLowCardinalityKeyValue("kind").getValue());
        assertEquals("acquired", context.getLowCardinalityKeyValue("outcome").getValue());
        assertEquals(name, context.getHighCardinalityKeyValue("lock").getValue());
        assertNull(context.getLowCardinalityKeyValue("lock"), "never a low-cardinality (meter) key");
        assertNotNull(context.getLowCardinalityKeyValue("client"));
    }
}
