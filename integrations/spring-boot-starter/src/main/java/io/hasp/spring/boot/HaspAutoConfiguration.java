package io.hasp.spring.boot;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.spring.LockedConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * hasp in a Spring Boot application: one {@link HaspClient} built from
 * {@code spring.data.redis.*} ({@link RedisServerProperties}) and {@code hasp.*}
 * ({@link HaspProperties}), closed when the application stops; none when the application defines
 * its own {@code HaspClient} bean. {@link io.hasp.annotation.Locked} on the application's beans
 * ({@link LockedConfiguration}), and, with Spring Boot's health support, {@link HaspHealthIndicator}
 * as {@code haspHealthIndicator}.
 */
@AutoConfiguration
@EnableConfigurationProperties({HaspProperties.class, RedisServerProperties.class})
@Import(LockedConfiguration.class)
public class HaspAutoConfiguration {

    /** The client, unless the application defines one. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public HaspClient haspClient(RedisServerProperties redis, HaspProperties hasp) {
        return HaspClient.create(config(redis, hasp));
    }

    /**
     * The client's configuration from the two sets of properties.
     *
     * @throws IllegalStateException when {@code spring.data.redis.sentinel.*} is set, or the cluster
     *     nodes are not {@code host:port} each
     */
    static HaspConfig config(RedisServerProperties redis, HaspProperties hasp) {
        if (redis.getSentinel().getMaster() != null || !redis.getSentinel().getNodes().isEmpty()) {
            throw new IllegalStateException("spring.data.redis.sentinel.*: hasp does not support Redis Sentinel yet"
                    + " (expected: spring.data.redis.url, host and port, or cluster.nodes)");
        }
        HaspConfig.Builder b = HaspConfig.builder();
        if (!redis.getCluster().getNodes().isEmpty()) {
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
        return b.build();
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
        for (String node : redis.getCluster().getNodes()) {
            if (!node.trim().matches(".+:\\d+")) {
                throw new IllegalStateException("spring.data.redis.cluster.nodes: \"" + node + "\" (expected: host:port)");
            }
        }
        try {
            b.uri(scheme + String.join(",", redis.getCluster().getNodes()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("spring.data.redis.cluster.nodes: " + redis.getCluster().getNodes()
                    + " (expected: host:port, ...): " + e.getMessage(), e);
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
