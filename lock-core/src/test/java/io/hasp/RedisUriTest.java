package io.hasp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The URI grammar: every accepted form, and every rejection naming what is wrong and what is accepted. */
class RedisUriTest {

    @Test
    void theFullRedisForm() {
        HaspConfig c = HaspConfig.fromUri("redis://locker:p%40ss@cache.example:6380/4"
                + "?timeout=500ms&connectTimeout=2s&clientName=orders&protocol=3");
        assertEquals("cache.example", c.host());
        assertEquals(6380, c.port());
        assertFalse(c.tls());
        assertEquals("locker", c.username());
        assertEquals("p@ss", new String(c.password()));
        assertEquals(4, c.database());
        assertEquals(Duration.ofMillis(500), c.commandTimeout());
        assertEquals(Duration.ofSeconds(2), c.connectTimeout());
        assertEquals("orders", c.clientName());
        assertEquals(HaspConfig.Protocol.RESP3, c.protocol());
        assertNull(c.socketPath());
        assertEquals("redis://locker:***@cache.example:6380/4", c.redactedUri());
    }

    @Test
    void defaultsAndShortForms() {
        HaspConfig c = HaspConfig.fromUri("rediss://h");
        assertTrue(c.tls());
        assertEquals(6379, c.port());
        assertEquals(0, c.database());
        assertNull(c.username());
        assertNull(c.password());
        assertEquals("secret", new String(HaspConfig.fromUri("redis://secret@h").password()), "a lone user-info is the password");
        assertEquals(7, HaspConfig.fromUri("redis://h?database=7").database());
        assertEquals(Duration.ofMinutes(1), HaspConfig.fromUri("redis://h?timeout=1m").commandTimeout());
        assertEquals(Duration.ofMillis(250), HaspConfig.fromUri("redis://h?connectTimeout=250").connectTimeout());
        assertEquals(HaspConfig.Protocol.RESP2, HaspConfig.fromUri("redis://h?protocol=2").protocol());
        HaspConfig v6 = HaspConfig.fromUri("redis://[::1]:7000");
        assertEquals("::1", v6.host());
        assertEquals(7000, v6.port());
        assertEquals("redis://[::1]:7000", v6.redactedUri());
    }

    @Test
    void theSocketForm() {
        HaspConfig c = HaspConfig.fromUri("redis-socket://:pw@/run/redis/redis.sock?database=2&timeout=1s");
        assertEquals(Path.of("/run/redis/redis.sock"), c.socketPath());
        assertEquals(2, c.database());
        assertEquals("pw", new String(c.password()));
        assertEquals(Duration.ofSeconds(1), c.commandTimeout());
        assertEquals("redis-socket://:***@/run/redis/redis.sock?database=2", c.redactedUri());
        assertEquals(Path.of("/tmp/r.sock"), HaspConfig.fromUri("redis-socket:///tmp/r.sock").socketPath());
    }

    @Test
    void theClusterForm() {
        HaspConfig c = HaspConfig.fromUri("redis-cluster://:pw@10.0.0.1:7000,10.0.0.2,[::1]:7002?timeout=2s");
        assertTrue(c.isCluster());
        assertEquals(3, c.clusterSeeds().size());
        assertEquals("10.0.0.2", c.clusterSeeds().get(1).getHostString());
        assertEquals(6379, c.clusterSeeds().get(1).getPort());
        assertEquals("::1", c.clusterSeeds().get(2).getHostString());
        assertEquals("10.0.0.1", c.host(), "the first seed");
        assertEquals(7000, c.port());
        assertEquals(Duration.ofSeconds(2), c.commandTimeout());
        assertEquals("redis-cluster://:***@10.0.0.1:7000,10.0.0.2:6379,[::1]:7002", c.redactedUri());
        assertTrue(HaspConfig.fromUri("rediss-cluster://h:1").tls());
        assertFalse(HaspConfig.fromUri("redis://h").isCluster());
    }

    @Test
    void theSentinelForm() {
        HaspConfig c = HaspConfig.fromUri("redis-sentinel://locker:p%23w@10.0.0.1,10.0.0.2:26380,[::1]/3"
                + "?timeout=2s#orders");
        assertTrue(c.isSentinel());
        assertFalse(c.isCluster());
        SentinelConfig sentinel = c.sentinel();
        assertEquals("orders", sentinel.masterName());
        assertEquals(3, sentinel.sentinels().size());
        assertEquals("10.0.0.1", sentinel.sentinels().get(0).getHostString());
        assertEquals(26379, sentinel.sentinels().get(0).getPort(), "a sentinel's default port");
        assertEquals(26380, sentinel.sentinels().get(1).getPort());
        assertEquals("::1", sentinel.sentinels().get(2).getHostString());
        assertEquals("locker", c.username(), "the user-info is the data nodes'");
        assertEquals("p#w", new String(c.password()));
        assertNull(sentinel.username(), "the sentinels get no credentials from a URI");
        assertFalse(sentinel.hasPassword());
        assertEquals(Duration.ofSeconds(5), sentinel.checkEvery());
        assertEquals(3, c.database());
        assertEquals(Duration.ofSeconds(2), c.commandTimeout());
        assertEquals("redis-sentinel://locker:***@10.0.0.1:26379,10.0.0.2:26380,[::1]:26379/3#orders", c.redactedUri());
        assertEquals("mymaster", HaspConfig.fromUri("redis-sentinel://h?sentinelMasterId=mymaster").sentinel().masterName(),
                "Lettuce's parameter");
        assertEquals("m", HaspConfig.fromUri("redis-sentinel://h?sentinelMasterId=m#m").sentinel().masterName());
        HaspConfig tls = HaspConfig.fromUri("rediss-sentinel://h#m");
        assertTrue(tls.tls());
        assertEquals("rediss-sentinel://h:26379#m", tls.redactedUri());
        assertFalse(HaspConfig.fromUri("redis://h").isSentinel());
        assertNull(HaspConfig.builder().uri("redis-sentinel://h#m").uri("redis://h").build().sentinel(),
                "a later URI of another scheme replaces the sentinels");
    }

    @Test
    void theSentinelsCredentialsAreSetApartAndAUriKeepsThem() {
        SentinelConfig set = SentinelConfig.of("m", List.of(InetSocketAddress.createUnresolved("s", 1)))
                .withCredentials("watcher", "s3cr3t".toCharArray()).withCheckEvery(Duration.ofSeconds(1));
        HaspConfig c = HaspConfig.builder().sentinel(set).uri("redis-sentinel://:data@h1,h2#orders").build();
        assertEquals("orders", c.sentinel().masterName());
        assertEquals(2, c.sentinel().sentinels().size(), "the URI's sentinels");
        assertEquals("watcher", c.sentinel().username(), "the credentials set before stay");
        assertEquals("s3cr3t", new String(c.sentinel().password()));
        assertEquals(Duration.ofSeconds(1), c.sentinel().checkEvery());
        assertEquals("data", new String(c.password()));
        assertFalse(c.toString().contains("s3cr3t"), c.toString());
        assertFalse(c.sentinel().toString().contains("s3cr3t"), c.sentinel().toString());
        assertTrue(c.sentinel().toString().contains("user watcher, password ***"), c.sentinel().toString());
    }

    @Test
    void sentinelSettingsAreChecked() {
        List<InetSocketAddress> one = List.of(InetSocketAddress.createUnresolved("s", 26379));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SentinelConfig.of("my master", one))
                .getMessage().startsWith("masterName: 'my master' (expected:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SentinelConfig.of(null, one))
                .getMessage().startsWith("masterName: null"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SentinelConfig.of("m", List.of()))
                .getMessage().startsWith("sentinels: [] (expected: at least one host:port)"));
        assertThrows(IllegalArgumentException.class, () -> SentinelConfig.of("m", Arrays.asList((InetSocketAddress) null)));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> SentinelConfig.of("m", one).withCredentials("u", (char[]) null))
                .getMessage().contains("without a password"));
        assertThrows(IllegalArgumentException.class, () -> SentinelConfig.of("m", one).withCheckEvery(Duration.ofMillis(99)));
        assertThrows(IllegalArgumentException.class, () -> SentinelConfig.of("m", one).withCheckEvery(null));
        SentinelConfig sentinel = SentinelConfig.of("m", one);
        assertEquals("sentinel and cluster: both set (expected: at most one)", assertThrows(IllegalArgumentException.class,
                () -> HaspConfig.builder().sentinel(sentinel).cluster(one).build()).getMessage());
        assertEquals("sentinel and unixSocket: both set (expected: at most one)", assertThrows(
                IllegalArgumentException.class,
                () -> HaspConfig.builder().sentinel(sentinel).unixSocket(Path.of("/r.sock")).build()).getMessage());
        char[] password = "pw".toCharArray();
        SentinelConfig withPassword = sentinel.withCredentials(null, password);
        password[0] = 'x';
        assertEquals("pw", new String(withPassword.password()), "copied");
    }

    @Test
    void settingsTheUriDoesNotNameKeepTheirValues() {
        HaspConfig c = HaspConfig.builder().commandTimeout(Duration.ofSeconds(9)).clientName("kept").uri("redis://h").build();
        assertEquals(Duration.ofSeconds(9), c.commandTimeout());
        assertEquals("kept", c.clientName());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://h                               | scheme 'http' (accepted: redis, rediss, redis-socket, redis-cluster, rediss-cluster, redis-sentinel, rediss-sentinel)",
        "redis-sentinel://h                     | master name '' (expected: #masterName or sentinelMasterId=masterName",
        "redis-sentinel://h#                    | master name '' (expected:",
        "redis-sentinel://h#a%20b               | master name 'a b' (expected:",
        "redis-sentinel://h?sentinelMasterId=a#b | master name given twice, as #b and as sentinelMasterId=a",
        "redis://h?sentinelMasterId=m           | parameter sentinelMasterId for redis:// (expected: only with redis-sentinel://",
        "redis-sentinel://h,,h2#m               | no host",
        "redis-sentinel://h:0#m                 | port '0' (expected: 1..65535)",
        "redis-sentinel://h/1?database=2#m      | database given twice",
        "redis-cluster://h:1,h:2/3              | database 3 (expected: 0, the only database of a Redis Cluster)",
        "redis-cluster://h:1,,h:2               | no host",
        "h:6379                                 | no scheme",
        "redis://                               | no host",
        "redis://h:0                            | port '0' (expected: 1..65535)",
        "redis://h:70000                        | port '70000' (expected: 1..65535)",
        "redis://h:x                            | port 'x' (expected: 1..65535)",
        "redis://h1,h2                          | several hosts 'h1,h2' (expected: one host for redis://; a seed list needs redis-cluster://, a sentinel list redis-sentinel://)",
        "redis://h/x                            | database in the path 'x' (expected: a number >= 0)",
        "redis://h/-1                           | database in the path '-1' (expected: a number >= 0)",
        "redis://h/1?database=2                 | database given twice",
        "redis://h?db=1                         | unknown parameter 'db' (accepted: timeout, connectTimeout, clientName, database, protocol, sentinelMasterId)",
        "redis://h?timeout                      | parameter 'timeout' (expected: name=value",
        "redis://h?timeout=0                    | parameter timeout '0' (expected: a positive duration",
        "redis://h?timeout=3h                   | parameter timeout '3h' (expected: a positive duration",
        "redis://h?connectTimeout=-5            | parameter connectTimeout '-5' (expected: a positive duration",
        "redis://h?protocol=4                   | parameter protocol '4' (expected: 2 or 3)",
        "redis://h?clientName=                  | parameter clientName '' (expected: a non-empty name without spaces)",
        "redis://h?protocol=2&protocol=3        | parameter 'protocol' given twice",
        "redis://[::1                           | an IPv6 address in [brackets]",
        "redis://h#x                            | a fragment",
        "redis-socket://relative.sock           | socket path 'relative.sock' (expected: an absolute path",
    })
    void rejectionsNameThePartAndWhatIsAccepted(String uri, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HaspConfig.fromUri(uri));
        assertTrue(e.getMessage().startsWith("uri: "), e.getMessage());
        assertTrue(e.getMessage().contains(message.trim()), e.getMessage());
    }

    @Test
    void aBadlyEncodedPasswordIsNotEchoed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HaspConfig.fromUri("redis://:sec%zzret@h"));
        assertFalse(e.getMessage().contains("sec"), e.getMessage());
        assertNull(assertThrows(IllegalArgumentException.class, () -> HaspConfig.fromUri(null)).getCause());
    }
}
