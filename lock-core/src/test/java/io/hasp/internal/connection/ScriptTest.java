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
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
    void aBurstOfCallsTheServerCannotRunLoadsTheScriptOncePerConnection(RedisServer redis) throws Exception {
        // A script as long as the lock's own, so that a load per call would be felt.
        Script padded = Script.of("padded-incr-by", "-- " + "x".repeat(10_000) + "\n" + INCR_BY.text());
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).poolSize(2).build());
                RedisProbe probe = redis.probe()) {
            // Only this script's loads count: the client loads scripts of its own meanwhile (its record, written at
            // start and every third of its lease, loads client_record.lua after a flush), which INFO commandstats
            // would count too. The slow log, recording every command, shows which script each load carried.
            probe.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
            probe.call("CONFIG", "SET", "slowlog-max-len", "100000");
            for (int round = 0; round < 3; round++) {
                probe.call("SCRIPT", "FLUSH");
                probe.call("SLOWLOG", "RESET");
                CompletableFuture<?>[] calls = new CompletableFuture<?>[500];
                for (int i = 0; i < calls.length; i++) {
                    calls[i] = client.commands().evalsha(padded, Replies.LONG, List.of("burst"), 1);
                }
                CompletableFuture.allOf(calls).get(30, TimeUnit.SECONDS);
                long loads = loadsOf(padded, probe);
                assertTrue(loads >= 1 && loads <= 2, loads + " loads for 500 calls on 2 connections");
            }
            assertEquals("1500", get(client.commands().get("burst")));
            assertEquals(0, ScriptLoads.inFlight(), "every load answered and forgotten");
        }
    }

    /** The {@code SCRIPT LOAD}s of {@code script} in the slow log (which keeps an argument's first 128 bytes). */
    private static long loadsOf(Script script, RedisProbe probe) {
        String start = script.text().substring(0, 100);
        long loads = 0;
        for (Object entry : (List<?>) probe.call("SLOWLOG", "GET", "-1")) {
            List<?> args = (List<?>) ((List<?>) entry).get(3);
            if (args.size() == 3 && "SCRIPT".equalsIgnoreCase((String) args.get(0))
                    && "LOAD".equalsIgnoreCase((String) args.get(1)) && ((String) args.get(2)).startsWith(start)) {
                loads++;
            }
        }
        return loads;
    }

    @Test
    void blockingCallsAndTheEventLoopRecoverTogetherFromAFlushedCache(RedisServer redis) throws Exception {
        // Blocking lock calls travel on direct connections and recover from NOSCRIPT on the multiplexed one, from
        // their own threads, while the event loop recovers the async calls there: none may be queued before the
        // load it counts on (it would come back NOSCRIPT again, and fail).
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).poolSize(1)
                .directConnections(4).build());
                RedisProbe probe = redis.probe()) {
            for (int round = 0; round < 5; round++) {
                probe.call("SCRIPT", "FLUSH");
                int r = round;
                List<Future<?>> blocking = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int thread = t;
                    blocking.add(threads.submit(() -> {
                        for (int i = 0; i < 20; i++) {
                            HaspLock lock = client.getLock("race:" + r + ":" + thread + ":" + i);
                            assertTrue(lock.tryLock(Duration.ofSeconds(10), Duration.ofSeconds(30)));
                            lock.unlock();
                        }
                        return null;
                    }));
                }
                List<CompletableFuture<Void>> async = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    HaspLock lock = client.getLock("race:" + r + ":async:" + i);
                    LockOwner owner = lock.owner(1);
                    async.add(lock.tryLockAsync(Duration.ZERO, Duration.ofSeconds(30), owner)
                            .thenCompose(acquired -> {
                                assertTrue(acquired);
                                return lock.unlockAsync(owner);
                            }));
                }
                for (Future<?> each : blocking) {
                    each.get(60, TimeUnit.SECONDS);
                }
                CompletableFuture.allOf(async.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            }
            assertEquals(0, ScriptLoads.inFlight(), "every load answered and forgotten");
        } finally {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(30, TimeUnit.SECONDS));
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
