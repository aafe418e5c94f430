package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.RedisException;
import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.Replies;
import io.hasp.resp.RespValue;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(RedisServerExtension.class)
class CommandsTest {

    private static HaspClient resp2;
    private static HaspClient resp3;

    @BeforeAll
    static void connect(RedisServer redis) {
        resp2 = HaspClient.create(HaspConfig.builder().uri(redis.uri()).clientName("hasp-test").build());
        resp3 = HaspClient.create(HaspConfig.builder().uri(redis.uri()).protocol(HaspConfig.Protocol.RESP3).build());
    }

    @AfterAll
    static void close() {
        if (resp2 != null) {
            resp2.close();
        }
        if (resp3 != null) {
            resp3.close();
        }
    }

    private static HaspClient client(HaspConfig.Protocol protocol) {
        return protocol == HaspConfig.Protocol.RESP2 ? resp2 : resp3;
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void typedHelpersDecodeScalars(HaspConfig.Protocol protocol) throws Exception {
        RedisCommands redis = client(protocol).commands();
        String key = "typed-" + protocol;
        assertEquals("OK", get(redis.set(key, "välue")));
        assertEquals("välue", get(redis.get(key)));
        assertEquals(-1L, get(redis.pttl(key)));
        assertEquals(1L, get(redis.del(key)));
        assertNull(get(redis.get(key)));
        assertEquals(-2L, get(redis.pttl(key)));
        assertEquals(1L, get(redis.execute(Replies.LONG, "HSET", "h-" + protocol, "f", "v")));
        assertEquals("v", get(redis.hget("h-" + protocol, "f")));
        assertTrue(get(redis.hexists("h-" + protocol, "f")));
        assertFalse(get(redis.hexists("h-" + protocol, "g")));
        assertEquals(1L, get(redis.hlen("h-" + protocol)));
        assertEquals("PONG", get(redis.ping()));
        assertEquals(0L, get(redis.publish("nobody-" + protocol, "x")));
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void aggregatesDecodeAsTreesOrLists(HaspConfig.Protocol protocol) throws Exception {
        RedisCommands redis = client(protocol).commands();
        String key = "list-" + protocol;
        get(redis.execute(Replies.LONG, "RPUSH", key, "a", "b", "c"));
        assertEquals(List.of("a", "b", "c"), get(redis.execute(Replies.STRING_LIST, "LRANGE", key, 0L, -1L)));
        RespValue tree = get(redis.execute(Replies.VALUE, "LRANGE", key, 0, -1));
        assertTrue(tree.toString().contains("b"), tree::toString);
        RespValue hello = get(redis.execute(Replies.VALUE, "HELLO"));
        assertTrue(hello.toString().contains("redis"), hello::toString);
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void serverErrorsCarryTheirCodeAndTheConnectionStaysUsable(HaspConfig.Protocol protocol) throws Exception {
        RedisCommands redis = client(protocol).commands();
        String key = "wrongtype-" + protocol;
        get(redis.set(key, "x"));
        ExecutionException e = assertThrows(ExecutionException.class, () -> get(redis.hget(key, "f")));
        RedisServerException server = assertInstanceOf(RedisServerException.class, e.getCause());
        assertEquals("WRONGTYPE", server.code());
        assertEquals("x", get(redis.get(key)));
    }

    @Test
    void aReplyOfTheWrongTypeFailsOnlyThatCommand() throws Exception {
        RedisCommands redis = resp2.commands();
        get(redis.set("not-a-number", "abc"));
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> get(redis.execute(Replies.LONG, "GET", "not-a-number")));
        assertInstanceOf(RedisException.class, e.getCause());
        assertEquals("abc", get(redis.get("not-a-number")));
    }

    @Test
    void futuresCompleteOnTheClientsEventLoop() throws Exception {
        // a reply that takes 200 ms: the callback is attached long before the future completes
        // (a callback attached to an already complete future runs on the attaching thread)
        String thread = resp2.commands().execute(Replies.VOID, "BLPOP", "never", "0.2")
                .thenApply(nil -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS);
        assertTrue(thread.startsWith("hasp-io-"), thread);
        // 4 s: past the 3 s command timeout, too short for the connection to be taken for dead (6 s)
        CompletableFuture<Void> sleep = resp2.commands().execute(Replies.VOID, "BLPOP", "never", 4);
        String failedOn = sleep.handle((ok, e) -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS);
        assertTrue(failedOn.startsWith("hasp-io-"), "a timeout completes on the event loop too, not on " + failedOn);
    }

    @Test
    void theNioTransportWorksToo(RedisServer redis) throws Exception {
        try (HaspClient nio = HaspClient.create(HaspConfig.builder().uri(redis.uri()).nativeTransport(false).build())) {
            assertEquals("PONG", get(nio.commands().ping()));
        }
    }

    @Test
    void badArgumentsAreRejectedBeforeAnythingIsSent() {
        RedisCommands redis = resp2.commands();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> redis.execute(Replies.VOID, "SET", "k", null));
        assertTrue(e.getMessage().startsWith("args[1]: null"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> redis.execute(Replies.VOID, "SET", "k", 1.5));
        assertThrows(IllegalArgumentException.class, () -> redis.execute(Replies.VOID, "SCRIPT LOAD", "x"));
        assertThrows(IllegalArgumentException.class, () -> redis.del());
    }

    @Test
    void binaryAndNumericArgumentsRoundTrip() throws Exception {
        RedisCommands redis = resp2.commands();
        get(redis.execute(Replies.OK, "SET", "bin".getBytes(), new byte[] {0, 1, 2, (byte) 0xff}));
        assertEquals(4L, get(redis.execute(Replies.LONG, "STRLEN", "bin")));
        get(redis.execute(Replies.OK, "SET", "num", 42L));
        assertEquals(43L, get(redis.execute(Replies.LONG, "INCRBY", "num", 1)));
    }

    @Test
    void timeoutWhileTheServerSleepsThenTheNextCommandGetsItsOwnReply() throws Exception {
        try (RedisServer server = RedisServer.builder().name("debug-sleep").option("enable-debug-command", "yes").start();
                HaspClient client = HaspClient.create(HaspConfig.builder().uri(server.uri()).poolSize(1)
                .commandTimeout(Duration.ofMillis(200)).build())) {
            RedisCommands redis = client.commands();
            get(redis.set("after-sleep", "mine"));
            // 1 s: well past the 200 ms timeout, well before the connection would be taken for dead (2.2 s)
            CompletableFuture<Void> sleep = redis.execute(Replies.VOID, "DEBUG", "SLEEP", "1");
            CompletableFuture<String> queued = redis.get("after-sleep");
            ExecutionException e = assertThrows(ExecutionException.class, () -> get(sleep));
            assertInstanceOf(RedisTimeoutException.class, e.getCause());
            ExecutionException e2 = assertThrows(ExecutionException.class, () -> get(queued));
            assertInstanceOf(RedisTimeoutException.class, e2.getCause());
            // the late replies (+OK for DEBUG SLEEP, "mine" for GET) are matched to the timed-out
            // commands and dropped: the next command must not receive one of them
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            String next = null;
            while (System.nanoTime() < deadline) {
                try {
                    next = get(redis.execute(Replies.STRING, "ECHO", "next"));
                    break;
                } catch (ExecutionException stillSleeping) {
                    assertInstanceOf(RedisTimeoutException.class, stillSleeping.getCause());
                }
            }
            assertEquals("next", next);
        }
    }
}
