package io.hasp.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.SentinelConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spring.data.redis.sentinel.*} read as Spring Data Redis reads it: the master's name and the
 * sentinels, the sentinels' own credentials apart from the data nodes' (from the properties or the
 * URL), the database, TLS; and the clear refusals. No server is needed: this is the mapping alone
 * ({@code HaspAutoConfigurationIT} runs an application on a real Sentinel deployment).
 */
class SentinelPropertiesTest {

    private static RedisServerProperties sentinel(String master, String... nodes) {
        RedisServerProperties redis = new RedisServerProperties();
        redis.getSentinel().setMaster(master);
        redis.getSentinel().setNodes(List.of(nodes));
        return redis;
    }

    private static HaspConfig config(RedisServerProperties redis) {
        return HaspAutoConfiguration.config(redis, new HaspProperties());
    }

    @Test
    void theSentinelsTheirCredentialsAndTheDataNodesCredentialsAreKeptApart() {
        RedisServerProperties redis = sentinel("orders", "10.0.0.1:26379", " 10.0.0.2:26380");
        redis.getSentinel().setUsername("watcher");
        redis.getSentinel().setPassword("sentinel-secret");
        redis.setUsername("app");
        redis.setPassword("data-secret");
        redis.setDatabase(3);
        HaspConfig config = config(redis);
        SentinelConfig sentinel = config.sentinel();
        assertEquals("orders", sentinel.masterName());
        assertEquals(2, sentinel.sentinels().size());
        assertEquals(26380, sentinel.sentinels().get(1).getPort());
        assertEquals("watcher", sentinel.username());
        assertEquals("sentinel-secret", new String(sentinel.password()));
        assertEquals("app", config.username());
        assertEquals("data-secret", new String(config.password()));
        assertEquals(3, config.database());
        assertFalse(config.tls());
        assertFalse(config.toString().contains("secret"), config.toString());
    }

    @Test
    void withoutSentinelCredentialsTheSentinelsGetNone() {
        RedisServerProperties redis = sentinel("mymaster", "s1:26379");
        redis.setPassword("data-secret");
        redis.getSsl().setEnabled(true);
        HaspConfig config = config(redis);
        assertNull(config.sentinel().username());
        assertFalse(config.sentinel().hasPassword(), "the data nodes' password is not the sentinels'");
        assertTrue(config.tls());
        assertEquals("rediss-sentinel://:***@s1:26379#mymaster", config.redactedUri());
    }

    @Test
    void theUrlGivesTheDataNodesCredentialsAndTheSentinelsWin() {
        RedisServerProperties redis = sentinel("mymaster", "s1:26379");
        redis.setUrl("redis://ops:from-url@elsewhere:6379");
        HaspConfig config = config(redis);
        assertTrue(config.isSentinel(), "sentinel.* is chosen before the URL, as in Spring Boot");
        assertEquals("ops", config.username());
        assertEquals("from-url", new String(config.password()));
    }

    @Test
    void whatCannotBeUsedIsRefusedNamingTheProperty() {
        assertTrue(assertThrows(IllegalStateException.class, () -> config(sentinel("mymaster"))).getMessage()
                .startsWith("spring.data.redis.sentinel.master and .nodes: mymaster and []"));
        assertTrue(assertThrows(IllegalStateException.class, () -> config(sentinel(null, "s1:26379"))).getMessage()
                .startsWith("spring.data.redis.sentinel.master and .nodes: null and [s1:26379]"));
        assertEquals("spring.data.redis.sentinel.nodes: \"s1\" (expected: host:port)",
                assertThrows(IllegalStateException.class, () -> config(sentinel("m", "s1"))).getMessage());
        RedisServerProperties userWithoutPassword = sentinel("m", "s1:26379");
        userWithoutPassword.getSentinel().setUsername("watcher");
        assertTrue(assertThrows(IllegalStateException.class, () -> config(userWithoutPassword)).getMessage()
                .contains("spring.data.redis.sentinel.*: sentinel username 'watcher' without a password"));
        assertTrue(assertThrows(IllegalStateException.class, () -> config(sentinel("my master", "s1:26379")))
                .getMessage().startsWith("spring.data.redis.sentinel.*: uri: master name 'my master'"));
    }
}
