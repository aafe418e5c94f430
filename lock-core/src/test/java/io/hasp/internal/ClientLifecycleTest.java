package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.RedisConnectionException;
import io.hasp.Replies;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisServerExtension.class)
class ClientLifecycleTest {

    /** Live client threads, other than those in {@code before} (other tests' clients may still be closing). */
    private static List<String> clientThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> !before.contains(thread))
                .map(Thread::getName)
                .filter(name -> name.startsWith("hasp-io-") || name.startsWith("hasp-timer-"))
                .collect(Collectors.toList());
    }

    private static Set<Thread> threadsNow() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    @Test
    void closeFailsPendingCommandsAndLeavesNoClientThread(RedisServer redis) throws Exception {
        Set<Thread> before = threadsNow();
        HaspClient client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).eventLoopThreads(3).build());
        assertFalse(clientThreads(before).isEmpty());
        assertEquals("PONG", client.commands().ping().get(10, TimeUnit.SECONDS));
        CompletableFuture<Void> blocked = client.commands().execute(Replies.VOID, "BLPOP", "never-pushed", 0);
        client.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> blocked.get(10, TimeUnit.SECONDS));
        assertInstanceOf(RedisClosedException.class, e.getCause());
        ExecutionException after = assertThrows(ExecutionException.class,
                () -> client.commands().ping().get(10, TimeUnit.SECONDS));
        assertInstanceOf(RedisClosedException.class, after.getCause());
        assertEquals(List.of(), clientThreads(before));
        client.close();   // idempotent
    }

    @Test
    void closeEndsEveryLockCallStillWaitingWithAClosedError(RedisServer redis) throws Exception {
        try (HaspClient holder = HaspClient.create(redis.uri())) {
            holder.getLock("close-while-waiting").lock(60, TimeUnit.SECONDS);
            HaspClient client = HaspClient.create(redis.uri());
            HaspLock lock = client.getLock("close-while-waiting");
            CompletableFuture<Void> locking = lock.lockAsync(lock.owner(1));
            CompletableFuture<Boolean> trying = lock.tryLockAsync(Duration.ofMinutes(5), lock.owner(2));
            CompletableFuture<Throwable> blocked = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    lock.lock();
                    blocked.complete(null);
                } catch (Throwable t) {
                    blocked.complete(t);
                }
            }, "blocked-in-lock");
            caller.start();
            try {
                assertTrue(Conditions.await(Duration.ofSeconds(10), () -> caller.getState() == Thread.State.WAITING),
                        "the caller waits for the holder");
                assertFalse(locking.isDone());
                client.close();
                assertInstanceOf(RedisClosedException.class, blocked.get(10, TimeUnit.SECONDS),
                        "lock() ends instead of waiting for a client that is gone");
                ExecutionException asyncEnd = assertThrows(ExecutionException.class,
                        () -> locking.get(10, TimeUnit.SECONDS));
                assertInstanceOf(RedisClosedException.class, asyncEnd.getCause());
                ExecutionException tryEnd = assertThrows(ExecutionException.class,
                        () -> trying.get(10, TimeUnit.SECONDS));
                assertInstanceOf(RedisClosedException.class, tryEnd.getCause());
            } finally {
                client.close();
                caller.interrupt();
                caller.join(TimeUnit.SECONDS.toMillis(10));
            }
            assertFalse(caller.isAlive());
            holder.getLock("close-while-waiting").unlock();
        }
    }

    @Test
    void aHostNameIsLookedUpOffTheEventLoopAndTheLookupThreadEndsWithTheClient(RedisServer redis) throws Exception {
        Set<Thread> before = threadsNow();
        try (HaspClient client = HaspClient.create(HaspConfig.builder().host("localhost").port(redis.port()).build())) {
            assertEquals("PONG", client.commands().ping().get(10, TimeUnit.SECONDS));
            assertTrue(clientThreads(before).stream().anyMatch(name -> name.endsWith("-dns")),
                    "the lookup ran on the client's lookup thread: " + clientThreads(before));
        }
        assertEquals(List.of(), clientThreads(before));
    }

    @Test
    void anUnknownHostFailsCreateWithAConnectionExceptionNamingIt() {
        HaspConfig config = HaspConfig.builder().host("no-such-host.invalid").port(6379)
                .connectTimeout(Duration.ofSeconds(2)).build();
        RedisConnectionException e = assertThrows(RedisConnectionException.class, () -> HaspClient.create(config));
        assertTrue(e.getMessage().contains("no-such-host.invalid"), e.getMessage());
    }

    @Test
    void anUnreachableServerFailsCreateWithAConnectionException() {
        Set<Thread> before = threadsNow();
        HaspConfig config = HaspConfig.builder().host("127.0.0.1").port(1).connectTimeout(Duration.ofSeconds(2)).build();
        RedisConnectionException e = assertThrows(RedisConnectionException.class, () -> HaspClient.create(config));
        assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
        assertEquals(List.of(), clientThreads(before));
    }

    @Test
    void blockingOnAClientThreadFailsFast(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(redis.uri()); RedisProbe probe = RedisProbe.connect(redis.port())) {
            // the callback is attached before the reply exists (the list is pushed afterwards, over another
            // connection), so it runs on the client's event loop, never on this thread
            CompletableFuture<Throwable> failure = client.commands().execute(Replies.VOID, "BLPOP", "signal", "30")
                    .handle((nil, ignored) -> {
                        try {
                            Futures.await(client.commands().ping());
                            return null;
                        } catch (Throwable t) {
                            return t;
                        }
                    });
            probe.call("RPUSH", "signal", "go");
            Throwable t = failure.get(10, TimeUnit.SECONDS);
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, t);
            assertTrue(e.getMessage().contains("hasp-io-"), e.getMessage());
            assertEquals("PONG", Futures.await(client.commands().ping()));
        }
    }

    @Test
    void pipelinedCommandsFromSixteenThreadsGetTheirOwnReplies(RedisServer redis) throws Exception {
        int threads = 16;
        int perThread = 10_000 / threads;
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).poolSize(3).build())) {
            List<CompletableFuture<Integer>> workers = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(CompletableFuture.supplyAsync(() -> {
                    CompletableFuture<?>[] replies = new CompletableFuture<?>[perThread * 2];
                    for (int i = 0; i < perThread; i++) {
                        String key = "p:" + thread + ":" + i;
                        replies[2 * i] = client.commands().set(key, key + "=v");
                        int n = i;
                        replies[2 * i + 1] = client.commands().execute(Replies.STRING, "ECHO", thread + "/" + n)
                                .thenAccept(echo -> assertEquals(thread + "/" + n, echo));
                    }
                    CompletableFuture.allOf(replies).join();
                    int checked = 0;
                    for (int i = 0; i < perThread; i++) {
                        String key = "p:" + thread + ":" + i;
                        assertEquals(key + "=v", client.commands().get(key).join());
                        checked++;
                    }
                    return checked;
                }, java.util.concurrent.Executors.newSingleThreadExecutor()));
            }
            int total = 0;
            for (CompletableFuture<Integer> worker : workers) {
                total += worker.get(60, TimeUnit.SECONDS);
            }
            assertEquals(threads * perThread, total);
        }
    }
}
