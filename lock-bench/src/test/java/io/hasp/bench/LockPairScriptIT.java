package io.hasp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.Conditions;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pair ceiling's script against a real redis-server: it does what an uncontended {@code lock()} then
 * {@code unlock()} do to the server, and no more.
 */
@WithRedisServer
class LockPairScriptIT {

    private static final String LOCK = "bench:pair:{7}";
    private static final String CHANNEL = "bench:pair:channel:{7}";
    private static final String LATCH = "bench:pair:latch:{7}";

    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;
    private static String sha;

    @BeforeAll
    static void connect(RedisServer redis) {
        client = RedisClient.create(redis.uri());
        connection = client.connect();
        sha = connection.sync().scriptLoad(LockPairScriptText.text());
    }

    @AfterAll
    static void disconnect() {
        connection.close();
        client.shutdown();
    }

    @BeforeEach
    void empty() {
        connection.sync().flushall();
    }

    private Long pair() {
        return connection.sync().evalsha(sha, ScriptOutputType.INTEGER, new String[] {LOCK, CHANNEL, LATCH},
                AcquireScriptText.LEASE_MILLIS, AcquireScriptText.OWNER, LockPairScriptText.LATCH_MILLIS);
    }

    @Test
    void takesAFreeLockFreesItPublishesAndLeavesTheLatch() {
        List<String> messages = new CopyOnWriteArrayList<>();
        StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
        try {
            subscriber.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    messages.add(channel + "=" + message);
                }
            });
            subscriber.sync().subscribe(CHANNEL);

            assertEquals(3L, pair(), "unlock.lua's answer: freed while a client that takes no turns (this test's"
                    + " subscriber) listens on the unlock channel");

            RedisCommands<String, String> redis = connection.sync();
            assertEquals(0L, redis.exists(LOCK), "the lock is free again");
            assertEquals("3", redis.get(LATCH), "the unlock latch records the outcome");
            long ttl = redis.pttl(LATCH);
            assertTrue(ttl > 0 && ttl <= Long.parseLong(LockPairScriptText.LATCH_MILLIS), "latch ttl " + ttl);
            assertEquals(1L, redis.dbsize(), "nothing but the latch is left");
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> messages.contains(CHANNEL + "=0")),
                    "the unlock message reached a subscriber: " + messages);
        } finally {
            subscriber.close();
        }
    }

    @Test
    void leavesALockHeldByAnotherOwnerAlone() {
        RedisCommands<String, String> redis = connection.sync();
        redis.hset(LOCK, "someone-else:1", "1");
        redis.pexpire(LOCK, 30_000);

        assertEquals(-1L, pair(), "busy");

        assertEquals(Map.of("someone-else:1", "1"), redis.hgetall(LOCK));
        assertEquals(0L, redis.exists(LATCH), "no unlock was attempted");
    }

    @Test
    void runsTheLockScriptsUnchanged() {
        String pair = LockPairScriptText.text();
        assertTrue(pair.contains(AcquireScriptText.resource(AcquireScriptText.TURNS_RESOURCE)), "turns.lua, verbatim");
        assertTrue(pair.contains(AcquireScriptText.resource(AcquireScriptText.RESOURCE)), "acquire.lua, verbatim");
        assertTrue(pair.contains(AcquireScriptText.resource(LockPairScriptText.UNLOCK_RESOURCE)), "unlock.lua, verbatim");
        for (String key : LockPairScriptText.KEYS) {
            assertTrue(key.startsWith(LockPairScriptText.KEY_PREFIX) && key.contains("__rand_int__"),
                    key + ": a random name per call under the prefix the runner removes");
        }
    }
}
