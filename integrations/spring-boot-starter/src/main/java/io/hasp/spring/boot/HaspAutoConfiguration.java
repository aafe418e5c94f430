package io.hasp.spring.boot;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.HaspListener;
import io.hasp.ReplicaAcks;
import io.hasp.spring.LockedConfiguration;
import io.hasp.micrometer.HaspMetrics;
import io.hasp.reactor.HaspReactiveClient;
import io.hasp.spring.integration.HaspLockRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * hasp in a Spring Boot application: one {@link HaspClient} built from
 * {@code spring.data.redis.*} ({@link RedisServerProperties}) and {@code hasp.*}
 * ({@link HaspProperties}), closed when the application stops; none when the application defines
 * its own {@code HaspClient} bean. {@link io.hasp.annotation.Locked} on the application's beans
 * ({@link LockedConfiguration}); with Spring Boot's health support, {@link HaspHealthIndicator}
 * as {@code haspHealthIndicator}; with Spring Integration, a {@link HaspLockRegistry} as
 * {@code haspLockRegistry}; with Micrometer, {@link HaspMetrics} as the client's listener
 * ({@code haspMetrics}), bound to the application's meter registry; with Actuator, the web endpoint
 * {@link HaspEndpoint} ({@code hasp}). A {@link HaspListener} bean of the application's own becomes the client's
 * listener instead.
 */
@AutoConfiguration
@EnableConfigurationProperties({HaspProperties.class, RedisServerProperties.class})
@Import(LockedConfiguration.class)
public class HaspAutoConfiguration {

    /** The client, unless the application defines one. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public HaspClient haspClient(RedisServerProperties redis, HaspProperties hasp, ObjectProvider<HaspListener> listener) {
        HaspConfig config = config(redis, hasp);
        HaspListener one = listener.getIfUnique();
        return HaspClient.create(one == null ? config : config.toBuilder().listener(one).build());
    }

    /**
     * The client's configuration from the two sets of properties.
     *
     * As Spring Boot chooses: the sentinels when {@code sentinel.*} is set, else the cluster nodes, else
     * the URL, else host and port.
     *
     * @throws IllegalStateException when the sentinel master or nodes are missing, or the sentinels or
     *     cluster nodes are not {@code host:port} each
     */
    static HaspConfig config(RedisServerProperties redis, HaspProperties hasp) {
        HaspConfig.Builder b = HaspConfig.builder();
        RedisServerProperties.Sentinel sentinel = redis.getSentinel();
        if (sentinel.getMaster() != null || !sentinel.getNodes().isEmpty()) {
            sentinels(b, redis);
        } else if (!redis.getCluster().getNodes().isEmpty()) {
            clusterNodes(b, redis);
            credentials(b, redis);
        } else if (redis.getUrl() != null && !redis.getUrl().isBlank()) {
            b.uri(redis.getUrl());   // as in Spring Boot: the URL replaces host, port and credentials
        } else {
            b.host(redis.getHost()).port(redis.getPort()).database(redis.getDatabase()).tls(redis.getSsl().isEnabled());
            credentials(b, redis);
        }
        if (hasp.getCommandTimeout() != null) {
            b.commandTimeout(hasp.getCommandTimeout());
        } else if (redis.getTimeout() != null) {
            b.commandTimeout(redis.getTimeout());
        }
        if (hasp.getConnectTimeout() != null) {
            b.connectTimeout(hasp.getConnectTimeout());
        } else if (redis.getConnectTimeout() != null) {
            b.connectTimeout(redis.getConnectTimeout());
        }
        b.watchdogLease(hasp.getWatchdogLease());
        if (hasp.getPoolSize() != null) {
            b.poolSize(hasp.getPoolSize());
        }
        if (hasp.getDirectConnections() != null) {
            b.directConnections(hasp.getDirectConnections());
        }
        if (hasp.getTopologyRefresh() != null) {
            b.topologyRefresh(hasp.getTopologyRefresh());
        }
        HaspProperties.ReplicaAcks acks = hasp.getReplicaAcks();
        if (acks.getReplicas() > 0) {
            ReplicaAcks confirmed = ReplicaAcks.of(acks.getReplicas(), acks.getTimeout());
            b.replicaAcks(acks.isFsync() ? confirmed.withFsync() : confirmed);
        }
        HaspConfig built = b.build();
        // The name: hasp.client-name, else the URL's clientName, else spring.data.redis.client-name.
        if (hasp.getClientName() != null) {
            return built.toBuilder().clientName(hasp.getClientName()).build();
        }
        if (built.clientName() == null && redis.getClientName() != null) {
            return built.toBuilder().clientName(redis.getClientName()).build();
        }
        return built;
    }

    private static void credentials(HaspConfig.Builder b, RedisServerProperties redis) {
        if (redis.getUsername() != null) {
            b.username(redis.getUsername());
        }
        if (redis.getPassword() != null) {
            b.password(redis.getPassword());
        }
    }

    /**
     * The seeds as hasp's own {@code redis-cluster://} grammar reads them (IPv6 in brackets
     * included); each must name its port, as Spring Boot requires of {@code cluster.nodes}.
     */
    private static void clusterNodes(HaspConfig.Builder b, RedisServerProperties redis) {
        String scheme = redis.getSsl().isEnabled() ? "rediss-cluster://" : "redis-cluster://";
        b.uri(scheme + hostsAndPorts("spring.data.redis.cluster.nodes", redis.getCluster().getNodes()));
    }

    /**
     * The sentinels as Spring Data Redis reads them: {@code sentinel.master} and {@code sentinel.nodes}
     * (each {@code host:port}), the sentinels' own {@code sentinel.username} and {@code sentinel.password};
     * the data nodes' credentials from the URL or {@code username} and {@code password}, and the database.
     */
    private static void sentinels(HaspConfig.Builder b, RedisServerProperties redis) {
        RedisServerProperties.Sentinel sentinel = redis.getSentinel();
        if (sentinel.getMaster() == null || sentinel.getMaster().isBlank() || sentinel.getNodes().isEmpty()) {
            throw new IllegalStateException("spring.data.redis.sentinel.master and .nodes: " + sentinel.getMaster()
                    + " and " + sentinel.getNodes() + " (expected: both, the master's name and host:port, ...)");
        }
        String scheme = redis.getSsl().isEnabled() ? "rediss-sentinel://" : "redis-sentinel://";
        try {
            b.uri(scheme + hostsAndPorts("spring.data.redis.sentinel.nodes", sentinel.getNodes()) + "/"
                    + redis.getDatabase() + "#" + sentinel.getMaster().trim());
            b.sentinel(b.build().sentinel().withCredentials(sentinel.getUsername(),
                    sentinel.getPassword() == null ? null : sentinel.getPassword().toCharArray()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("spring.data.redis.sentinel.*: " + e.getMessage(), e);
        }
        if (redis.getUrl() != null && !redis.getUrl().isBlank()) {
            HaspConfig url = HaspConfig.fromUri(redis.getUrl());   // as in Spring Boot: the URL's credentials
            b.username(url.username()).password(url.password());
        } else {
            credentials(b, redis);
        }
    }

    /** {@code nodes} joined for a URI, each checked to be {@code host:port}. */
    private static String hostsAndPorts(String property, List<String> nodes) {
        for (String node : nodes) {
            if (!node.trim().matches(".+:\\d+")) {
                throw new IllegalStateException(property + ": \"" + node + "\" (expected: host:port)");
            }
        }
        StringBuilder joined = new StringBuilder();
        for (String node : nodes) {
            joined.append(joined.length() == 0 ? "" : ",").append(node.trim());
        }
        try {
            HaspConfig.fromUri("redis-cluster://" + joined);   // each host and port as the URI grammar reads them
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(property + ": " + nodes + " (expected: host:port, ...): " + e.getMessage(), e);
        }
        return joined.toString();
    }

    /**
     * Spring Integration's lock registry on the client, {@code haspLockRegistry}, where the application
     * has Spring Integration and defines no {@code LockRegistry} of its own ({@code hasp.lock-registry.*}).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.integration.support.locks.LockRegistry")
    static class LockRegistryConfiguration {

        @Bean
        @ConditionalOnMissingBean(type = "org.springframework.integration.support.locks.LockRegistry")
        HaspLockRegistry haspLockRegistry(HaspClient client, HaspProperties hasp) {
            HaspProperties.LockRegistry registry = hasp.getLockRegistry();
            return registry.getExpireAfter() == null ? new HaspLockRegistry(client, registry.getKey())
                    : new HaspLockRegistry(client, registry.getKey(), registry.getExpireAfter());
        }
    }

    /**
     * hasp's meters, where the application has Micrometer: {@link HaspMetrics} as the client's listener, tagged
     * with {@code spring.application.name} (or {@code hasp}), observing acquisitions where an
     * {@code ObservationRegistry} bean exists, bound to the application's {@code MeterRegistry} and watching
     * the client once the context is up. None when the application defines a {@link HaspListener}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(HaspListener.class)
        HaspMetrics haspMetrics(Environment environment, ObjectProvider<ObservationRegistry> observations) {
            HaspMetrics.Builder metrics = HaspMetrics.builder()
                    .clientName(environment.getProperty("spring.application.name", "hasp"));
            observations.ifUnique(metrics::observations);
            return metrics.build();
        }

        @Bean
        @ConditionalOnBean(HaspMetrics.class)
        SmartInitializingSingleton haspMetricsBinding(HaspMetrics metrics, HaspClient client,
                ObjectProvider<MeterRegistry> registry) {
            return () -> {
                registry.ifUnique(metrics::bindTo);
                metrics.watch(client);
            };
        }
    }

    /**
     * The client's locks and synchronizers for Reactor, {@code haspReactiveClient}, where the application has
     * Reactor and defines no {@link HaspReactiveClient} of its own.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "reactor.core.publisher.Mono")
    static class ReactiveConfiguration {

        @Bean
        @ConditionalOnMissingBean
        HaspReactiveClient haspReactiveClient(HaspClient client) {
            return HaspReactiveClient.of(client);
        }
    }

    /**
     * The Actuator endpoint {@code hasp} ({@link HaspEndpoint}), where the application has Actuator and defines no
     * {@code HaspEndpoint} of its own; served over HTTP once the application exposes it.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        HaspEndpoint haspEndpoint(HaspClient client, HaspProperties hasp) {
            return new HaspEndpoint(client, hasp.getEndpoint().isForceUnlockEnabled());
        }
    }

    /** The health indicator, where the application has Spring Boot's health support. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "haspHealthIndicator")
        HaspHealthIndicator haspHealthIndicator(HaspClient client) {
            return new HaspHealthIndicator(client);
        }
    }
}
