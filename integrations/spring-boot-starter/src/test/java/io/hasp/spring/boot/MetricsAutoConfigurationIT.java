package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspListener;
import io.hasp.lock.HaspLock;
import io.hasp.micrometer.HaspMetrics;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The starter's meters: with Micrometer and a meter registry, {@link HaspMetrics} is the client's listener,
 * tagged with the application's name and bound to that registry; an application's own {@link HaspListener}
 * takes its place; without Micrometer there is none, and the client works as before. The health indicator
 * tells the holds the client has and those it lost.
 */
@ExtendWith(RedisServerExtension.class)
class MetricsAutoConfigurationIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OwnListenerApp {
        static final AtomicInteger ACQUIRED = new AtomicInteger();

        @Bean
        HaspListener myListener() {
            return new HaspListener() {
                @Override
                public void acquired(String kind, String lock, long waitNanos, Object started) {
                    ACQUIRED.incrementAndGet();
                }
            };
        }
    }

    @Test
    void withMicrometerTheClientsLocksAreMeteredInTheApplicationsRegistry(RedisServer redis) throws Exception {
        try (ConfigurableApplicationContext context = StarterApps.run(App.class, null, redis, "spring.application.name=orders",
                "hasp.watchdog-lease=1s")) {
            HaspClient client = context.getBean(HaspClient.class);
            HaspMetrics metrics = context.getBean(HaspMetrics.class);
            assertSame(metrics, client.config().listener());
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            HaspLock lock = client.getLock("orders:42");
            lock.lock();
            assertEquals(1.0, registry.get("hasp.locks.held").tag("client", "orders").gauge().value());
            lock.unlock();
            assertEquals(1, registry.get("hasp.lock.acquire").tags("client", "orders", "outcome", "acquired").timer().count());

            lock.lock();
            try (RedisProbe probe = redis.probe()) {
                probe.call("DEL", "orders:42");
            }
            assertTrue(Conditions.await(Duration.ofSeconds(20), () -> client.lostHolds() == 1));
            Health health = context.getBean(HaspHealthIndicator.class).health();
            Map<String, Object> details = health.getDetails();
            assertEquals(1L, details.get("lostHolds"));
            assertEquals(0, details.get("heldLocks"));
            assertEquals(1.0, registry.get("hasp.lock.lost").tags("client", "orders", "cause", "lost").counter().count());
        }
    }

    @Test
    void anApplicationsOwnListenerTakesThePlaceOfTheMeters(RedisServer redis) {
        try (ConfigurableApplicationContext context = StarterApps.run(OwnListenerApp.class, null, redis)) {
            assertFalse(context.containsBean("haspMetrics"));
            HaspClient client = context.getBean(HaspClient.class);
            assertSame(context.getBean("myListener"), client.config().listener());
            int before = OwnListenerApp.ACQUIRED.get();
            client.getLock("own:1").lock();
            client.getLock("own:1").unlock();
            assertEquals(before + 1, OwnListenerApp.ACQUIRED.get());
        }
    }

    @Test
    void withoutMicrometerThereAreNoMetersAndTheClientWorks(RedisServer redis) {
        try (ConfigurableApplicationContext context = StarterApps.run(PlainApp.class,
                new StarterApps.Hiding("io.micrometer."), redis)) {
            assertFalse(context.containsBean("haspMetrics"));
            HaspClient client = context.getBean(HaspClient.class);
            assertEquals(null, client.config().listener());
            client.getLock("plain:1").lock();
            client.getLock("plain:1").unlock();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class PlainApp {
    }
}
