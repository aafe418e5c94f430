package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.RedisException;
import io.hasp.RedisTimeoutException;
import io.hasp.Replies;
import io.hasp.internal.pubsub.MessageListener;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The client through cut links, blackholes, slow and killed servers. */
@ExtendWith(RedisServerExtension.class)
class ConnectionFaultsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static HaspConfig.Builder config(String uri) {
        return HaspConfig.builder().uri(uri).commandTimeout(TIMEOUT)
                .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(200), 0.2);
    }

    /** Retries a command until it succeeds or the deadline passes; the client reconnects on its own. */
    private static <T> T eventually(java.util.function.Supplier<CompletableFuture<T>> command) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            try {
                return command.get().get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertInstanceOf(RedisException.class, e.getCause());
                last = e.getCause();
            }
        }
        throw new AssertionError("no success within 30 s", last);
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void cutWithAThousandInFlightCompletesEveryFutureThenReconnectsAndResubscribes(
            HaspConfig.Protocol protocol, RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.uri()).protocol(protocol).build())) {
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            CountDownLatch resubscribed = new CountDownLatch(1);
            ClientInternals.pubSub(client).subscribe("events", new MessageListener() {
                @Override
                public void onMessage(String channel, String message) {
                    messages.add(message);
                }

                @Override
                public void onResubscribed(String channel) {
                    resubscribed.countDown();
                }
            }).get(10, TimeUnit.SECONDS);

            // Replies are held back, well within the command timeout but longer than sending the 1,000
            // commands and cutting takes on a loaded machine: the commands are still in flight at the cut.
            proxy.delay(Duration.ofSeconds(3));
            List<CompletableFuture<String>> inFlight = new ArrayList<>();
            try (RedisProbe probe = RedisProbe.connect(redis.port())) {
                long echoedBefore = probe.commandCalls("echo");
                for (int i = 0; i < 1000; i++) {
                    inFlight.add(client.commands().execute(Replies.STRING, "ECHO", "e" + i));
                }
                // Cut only once the server has run some of them: their replies are then held in the
                // proxy, so the cut is sure to hit commands in flight (a cut before the first write
                // could leave them all to the reconnected link).
                assertTrue(Conditions.await(Duration.ofSeconds(20), () -> probe.commandCalls("echo") > echoedBefore),
                        "the server ran some of the commands");
            }
            proxy.cutAll();
            int replied = 0;
            int lost = 0;
            for (int i = 0; i < inFlight.size(); i++) {
                try {   // bounded wait: none may hang past the command timeout
                    assertEquals("e" + i, inFlight.get(i).get(TIMEOUT.toMillis() + 2000, TimeUnit.MILLISECONDS));
                    replied++;
                } catch (ExecutionException e) {
                    assertInstanceOf(RedisConnectionException.class, e.getCause(), () -> "command failed with " + e.getCause());
                    lost++;
                }
            }
            assertEquals(1000, replied + lost);
            assertTrue(lost > 0, "the cut should have hit commands in flight");

            proxy.delay(Duration.ZERO);
            assertEquals("PONG", eventually(() -> client.commands().ping()));
            assertTrue(resubscribed.await(30, TimeUnit.SECONDS), "listener told about the resubscription");
            assertEquals(1L, client.commands().publish("events", "after-reconnect").get(10, TimeUnit.SECONDS));
            assertEquals("after-reconnect", messages.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void serverKilledAndRestartedOnTheSamePortTheClientComesBackByItself(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.uri()).build())) {
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            ClientInternals.pubSub(client).subscribe("after-kill", (channel, message) -> messages.add(message)).get(10, TimeUnit.SECONDS);
            assertEquals("OK", client.commands().set("k", "v").get(10, TimeUnit.SECONDS));
            redis.kill();
            ExecutionException down = assertThrows(ExecutionException.class,
                    () -> client.commands().ping().get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS));
            assertTrue(down.getCause() instanceof RedisConnectionException || down.getCause() instanceof RedisTimeoutException,
                    down.getCause()::toString);
            redis.restart();
            assertEquals("PONG", eventually(() -> client.commands().ping()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String received = null;
            while (received == null && System.nanoTime() < deadline) {
                client.commands().publish("after-kill", "back").get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
                received = messages.poll(200, TimeUnit.MILLISECONDS);
            }
            assertEquals("back", received);
        }
    }

    @Test
    void aCommandIssuedWhileDisconnectedWaitsForTheReconnect(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.uri()).commandTimeout(Duration.ofSeconds(20))
                .poolSize(1).build())) {
            client.commands().ping().get(10, TimeUnit.SECONDS);
            // a command in flight when the server dies fails once the client has noticed the loss
            CompletableFuture<Void> inFlight = client.commands().execute(Replies.VOID, "BLPOP", "never-pushed", 0);
            try (RedisProbe probe = RedisProbe.connect(redis.port())) {
                assertTrue(Conditions.await(Duration.ofSeconds(20),
                        () -> String.valueOf(probe.call("INFO", "clients")).contains("blocked_clients:1")),
                        "the BLPOP is blocked in the server");
            }
            redis.kill();
            ExecutionException lost = assertThrows(ExecutionException.class, () -> inFlight.get(30, TimeUnit.SECONDS));
            assertInstanceOf(RedisConnectionException.class, lost.getCause());
            // the connection is down: these commands wait for the reconnect
            CompletableFuture<String> issuedWhileDown = client.commands().ping();
            CompletableFuture<String> secondWhileDown = client.commands().execute(Replies.STRING, "ECHO", "queued");
            redis.restart();
            assertEquals("PONG", issuedWhileDown.get(30, TimeUnit.SECONDS));
            assertEquals("queued", secondWhileDown.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void aCommandIssuedWhileDisconnectedFailsAfterItsTimeout(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.uri()).commandTimeout(Duration.ofMillis(500)).build())) {
            proxy.blackhole(true);
            proxy.cutAll();
            // until the client notices the cut, a command may still be written and fail as lost;
            // once it waits for the (blackholed, never completing) reconnect, it times out
            Throwable failure;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            do {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> client.commands().ping().get(10, TimeUnit.SECONDS));
                failure = e.getCause();
            } while (failure instanceof RedisConnectionException && System.nanoTime() < deadline);
            assertInstanceOf(RedisTimeoutException.class, failure);
            proxy.blackhole(false);
            assertEquals("PONG", eventually(() -> client.commands().ping()));
        }
    }

    @Test
    void aConnectionThatStaysSilentPastTheTimeoutIsClosedAndReplaced(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.uri()).poolSize(1)
                        .commandTimeout(Duration.ofMillis(300)).build())) {
            int accepted = proxy.acceptedCount();
            proxy.blackhole(true);   // like a half-open connection: writes succeed, nothing comes back
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.commands().ping().get(10, TimeUnit.SECONDS));
            assertInstanceOf(RedisTimeoutException.class, e.getCause());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (proxy.acceptedCount() == accepted && System.nanoTime() < deadline) {
                client.commands().ping().handle((pong, failure) -> null).get(10, TimeUnit.SECONDS);
            }
            assertTrue(proxy.acceptedCount() > accepted, "the client gave up on the silent connection and reconnected");
            proxy.blackhole(false);
            assertEquals("PONG", eventually(() -> client.commands().ping()));
        }
    }

    @Test
    void anUnconfirmedSubscriptionTimesOutAndLeavesNothingBehind(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.uri()).commandTimeout(Duration.ofMillis(500)).build())) {
            proxy.blackhole(true);
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> ClientInternals.pubSub(client).subscribe("unconfirmed", (c, m) -> { }).get(10, TimeUnit.SECONDS));
            assertInstanceOf(RedisTimeoutException.class, e.getCause());
            proxy.blackhole(false);
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            eventually(() -> ClientInternals.pubSub(client).subscribe("unconfirmed", (c, m) -> messages.add(m)));
            assertEquals(1L, eventually(() -> client.commands().publish("unconfirmed", "now")));
            assertEquals("now", messages.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void blackholedRepliesTimeOutAndLateRepliesAreDropped(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.uri()).poolSize(1)
                        .commandTimeout(Duration.ofMillis(300)).build())) {
            client.commands().set("late", "stale").get(10, TimeUnit.SECONDS);
            proxy.blackhole(true);
            CompletableFuture<String> stale = client.commands().get("late");
            ExecutionException e = assertThrows(ExecutionException.class, () -> stale.get(10, TimeUnit.SECONDS));
            assertInstanceOf(RedisTimeoutException.class, e.getCause());
            proxy.blackhole(false);
            String next = eventually(() -> client.commands().execute(Replies.STRING, "ECHO", "fresh"));
            assertEquals("fresh", next);
            assertNotNull(client.commands().get("late").get(10, TimeUnit.SECONDS));
        }
    }
}
