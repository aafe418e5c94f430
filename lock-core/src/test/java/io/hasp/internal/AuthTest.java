package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisAuthException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisException;
import io.hasp.Replies;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@WithRedisServer(options = {"requirepass s3cret-pw"})
class AuthTest {

    @BeforeAll
    static void aclUser(RedisServer redis) throws Exception {
        try (HaspClient admin = HaspClient.create("redis://:s3cret-pw@127.0.0.1:" + redis.port())) {
            admin.commands().execute(Replies.OK, "ACL", "SETUSER", "locker", "on", ">locker-pw", "~*", "&*", "+@all")
                    .get(10, TimeUnit.SECONDS);
        }
    }

    private static HaspConfig config(RedisServer redis, String userInfo, HaspConfig.Protocol protocol) {
        return HaspConfig.builder().uri("redis://" + userInfo + "@127.0.0.1:" + redis.port() + "/3")
                .protocol(protocol).clientName("auth-test").connectTimeout(Duration.ofSeconds(5)).build();
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void passwordAndAclUserAuthenticateAndSelectTheDatabase(HaspConfig.Protocol protocol, RedisServer redis) throws Exception {
        for (String userInfo : new String[] {":s3cret-pw", "locker:locker-pw"}) {
            try (HaspClient client = HaspClient.create(config(redis, userInfo, protocol))) {
                assertEquals("PONG", client.commands().ping().get(10, TimeUnit.SECONDS));
                String info = client.commands().execute(Replies.STRING, "CLIENT", "INFO").get(10, TimeUnit.SECONDS);
                assertTrue(info.contains("db=3"), info);
                assertTrue(info.contains("name=auth-test"), info);
                assertTrue(info.contains("user=" + (userInfo.startsWith("locker") ? "locker" : "default")), info);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void theHandshakeIsReplayedAfterTheServerDropsTheConnection(HaspConfig.Protocol protocol, RedisServer redis) throws Exception {
        HaspConfig config = config(redis, "locker:locker-pw", protocol).toBuilder().poolSize(1)
                .reconnectBackoff(java.time.Duration.ofMillis(10), java.time.Duration.ofMillis(100), 0.2).build();
        try (HaspClient client = HaspClient.create(config);
                HaspClient admin = HaspClient.create("redis://:s3cret-pw@127.0.0.1:" + redis.port())) {
            long id = client.commands().execute(Replies.LONG, "CLIENT", "ID").get(10, TimeUnit.SECONDS);
            assertEquals(1L, admin.commands().execute(Replies.LONG, "CLIENT", "KILL", "ID", id).get(10, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String info = null;
            while (info == null && System.nanoTime() < deadline) {
                try {
                    info = client.commands().execute(Replies.STRING, "CLIENT", "INFO").get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException lostWithTheKill) {
                    assertInstanceOf(RedisConnectionException.class, lostWithTheKill.getCause());
                }
            }
            assertTrue(info != null && !info.contains("id=" + id + " "), String.valueOf(info));
            assertTrue(info.contains("db=3") && info.contains("name=auth-test") && info.contains("user=locker"), info);
        }
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void aWrongPasswordFailsCreateWithAnAuthExceptionThatDoesNotLeakIt(HaspConfig.Protocol protocol, RedisServer redis) {
        for (String userInfo : new String[] {":wrong-pw", "locker:wrong-pw", "nobody:wrong-pw"}) {
            HaspConfig config = config(redis, userInfo, protocol);
            RedisAuthException e = assertThrows(RedisAuthException.class, () -> HaspClient.create(config));
            assertFalse(e.getMessage().contains("wrong-pw"), e.getMessage());
            assertFalse(config.toString().contains("wrong-pw"), config.toString());
        }
    }

    @Test
    void noPasswordAgainstAProtectedServerIsAnAuthFailureToo(RedisServer redis) {
        HaspConfig resp2 = HaspConfig.builder().uri(redis.uri()).clientName("x").build();
        assertInstanceOf(RedisAuthException.class, assertThrows(RedisException.class, () -> HaspClient.create(resp2)));
        HaspConfig resp3 = HaspConfig.builder().uri(redis.uri()).protocol(HaspConfig.Protocol.RESP3).build();
        assertInstanceOf(RedisAuthException.class, assertThrows(RedisException.class, () -> HaspClient.create(resp3)));
    }

    @Test
    void theConfigNeverShowsThePassword() {
        HaspConfig config = HaspConfig.fromUri("rediss://user:p%40ss@example.com:7000/2");
        assertEquals("user", config.username());
        assertEquals("p@ss", new String(config.password()));
        assertEquals(2, config.database());
        assertTrue(config.tls());
        assertEquals("rediss://user:***@example.com:7000/2", config.redactedUri());
        assertFalse(config.toString().contains("p@ss"));
        assertEquals("pw", new String(HaspConfig.fromUri("redis://pw@h").password()));
    }
}
