package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.spring.integration.HaspLockRegistry;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * The starter's Spring Integration lock registry: made from {@code hasp.lock-registry.*} when the
 * application has Spring Integration, absent when it has not, and backing off before the
 * application's own {@code LockRegistry}.
 */
@ExtendWith(RedisServerExtension.class)
class LockRegistryAutoConfigurationIT {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OwnRegistryApp {
        @Bean
        LockRegistry<?> myRegistry() {
            return new DefaultLockRegistry();
        }
    }

    @Test
    void withSpringIntegrationTheRegistryLocksOnTheStartersClient(RedisServer redis) throws Exception {
        try (ConfigurableApplicationContext context = StarterApps.run(App.class, null, redis, "hasp.lock-registry.key=orders")) {
            LockRegistry<?> registry = context.getBean(LockRegistry.class);
            HaspLockRegistry hasp = assertInstanceOf(HaspLockRegistry.class, registry);
            assertSame(hasp, context.getBean("haspLockRegistry"));
            assertEquals("orders", hasp.registryKey());
            assertEquals(null, hasp.expireAfter(), "kept by the watchdog unless expire-after is set");
            long held = registry.executeLocked("42", () -> {
                try (RedisProbe probe = redis.probe()) {
                    return (Long) probe.call("EXISTS", "orders:42");
                }
            });
            assertEquals(1L, held);
            assertFalse(context.getBean(HaspClient.class).getLock("orders:42").isLocked());
        }
    }

    @Test
    void expireAfterGivesTheRegistrysLocksATimeToLive(RedisServer redis) throws Exception {
        try (ConfigurableApplicationContext context = StarterApps.run(App.class, null, redis,
                "hasp.lock-registry.expire-after=45s")) {
            HaspLockRegistry registry = context.getBean(HaspLockRegistry.class);
            assertEquals("lock-registry", registry.registryKey());
            assertEquals(Duration.ofSeconds(45), registry.expireAfter());
            long ttl = registry.executeLocked("42", () -> {
                try (RedisProbe probe = redis.probe()) {
                    return (Long) probe.call("PTTL", "lock-registry:42");
                }
            });
            assertTrue(ttl > 30_000 && ttl <= 45_000, "PTTL " + ttl);
        }
    }

    @Test
    void withoutSpringIntegrationThereIsNoRegistry(RedisServer redis) {
        try (ConfigurableApplicationContext context = StarterApps.run(App.class,
                new StarterApps.Hiding("org.springframework.integration."), redis)) {
            assertTrue(context.getBeansOfType(HaspClient.class).size() == 1, "the client is still made");
            assertFalse(context.containsBean("haspLockRegistry"));
        }
    }

    @Test
    void aBadValueStopsTheStartupNamingTheProperty(RedisServer redis) {
        for (String bad : List.of("hasp.lock-registry.expire-after=1ms", "hasp.lock-registry.key= ")) {
            RuntimeException failure = assertThrows(RuntimeException.class, () -> StarterApps.run(App.class, null, redis, bad).close());
            StringBuilder causes = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                causes.append(t.getMessage()).append('\n');
            }
            String property = bad.substring(0, bad.indexOf('='));   // Spring names the group, then the field
            assertTrue(causes.toString().contains("hasp.lock-registry")
                    && causes.toString().contains(property.substring(property.lastIndexOf('.') + 1)), causes.toString());
        }
    }

    @Test
    void anApplicationsOwnRegistryIsKept(RedisServer redis) {
        try (ConfigurableApplicationContext context = StarterApps.run(OwnRegistryApp.class, null, redis)) {
            assertFalse(context.containsBean("haspLockRegistry"));
            assertInstanceOf(DefaultLockRegistry.class, context.getBean(LockRegistry.class));
        }
    }
}
