package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisServerExtension.class)
class ScriptTest {

    private static final Script INCR_BY = Script.of("incr-by",
            "return redis.call('INCRBY', KEYS[1], ARGV[1])");

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }

    @Test
    void sha1IsComputedOnceAsRedisDoes(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(redis.uri())) {
            assertEquals(INCR_BY.sha1(), get(client.commands().scriptLoad(INCR_BY)));
        }
        assertEquals("e0e1f9fabfc9d4800c877a703b823ac0578ff8db", Script.of("x", "return 1").sha1());
    }

    @Test
    void noscriptAfterScriptFlushLoadsAndRetriesOnce(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).poolSize(2).build())) {
            assertEquals(5L, get(client.commands().evalsha(INCR_BY, Replies.LONG, List.of("n"), 5L)));
            for (int round = 0; round < 3; round++) {
                get(client.commands().execute(Replies.OK, "SCRIPT", "FLUSH"));
                // several calls race into the NOSCRIPT path on both connections at once
                CompletableFuture<?>[] calls = new CompletableFuture<?>[20];
                for (int i = 0; i < calls.length; i++) {
                    calls[i] = client.commands().evalsha(INCR_BY, Replies.LONG, List.of("n"), 1);
                }
                CompletableFuture.allOf(calls).get(10, TimeUnit.SECONDS);
            }
            assertEquals("65", get(client.commands().get("n")));
        }
    }

    @Test
    void noscriptAfterAServerRestart(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(redis.uri())
                .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(200), 0.2).build())) {
            assertEquals(1L, get(client.commands().evalsha(INCR_BY, Replies.LONG, List.of("r"), 1)));
            redis.restart();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Long result = null;
            while (result == null && System.nanoTime() < deadline) {
                try {
                    result = get(client.commands().evalsha(INCR_BY, Replies.LONG, List.of("r"), 7));
                } catch (ExecutionException stillReconnecting) {
                    // connection lost or timed out while the server came back; try again
                }
            }
            assertEquals(7L, result);   // restart lost the data and the script cache
        }
    }

    @Test
    void aScriptThatCannotLoadFailsWithTheLoadError(RedisServer redis) throws Exception {
        Script broken = Script.of("broken", "this is not lua");
        try (HaspClient client = HaspClient.create(redis.uri())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> get(client.commands().evalsha(broken, Replies.VOID, List.of())));
            RedisServerException server = assertInstanceOf(RedisServerException.class, e.getCause());
            assertEquals("ERR", server.code());
            assertTrue(server.getMessage().contains("compiling") || server.getMessage().contains("script"), server.getMessage());
        }
    }

    @Test
    void fromResourceNamesTheScriptAfterItsFile() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> Script.fromResource(ScriptTest.class, "missing.lua"));
        assertTrue(missing.getMessage().startsWith("resourceName: missing.lua"), missing.getMessage());
        Script script = Script.fromResource(ScriptTest.class, "echo.lua");
        assertEquals("echo", script.name());
        assertTrue(script.text().contains("ARGV[1]"));
    }
}
