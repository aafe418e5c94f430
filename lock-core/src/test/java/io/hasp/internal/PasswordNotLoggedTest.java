package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisAuthException;
import io.hasp.Replies;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import io.hasp.testing.WithRedisServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The password never shows in what the client logs, in its exceptions (messages, causes, stack
 * traces) or in {@code toString()}: through a wrong password at connect, a link cut with commands
 * in flight, reconnects refused because the server's password changed, and the recovery.
 *
 * <p>slf4j-simple writes to {@code System.err}, looked up at each log call, so the test swaps
 * {@code System.err} (and {@code System.out}) for a buffer around the scenario. It asserts that
 * the expected lines were captured, so the check cannot pass on an empty capture.
 */
@WithRedisServer(options = {"requirepass " + PasswordNotLoggedTest.PASSWORD})
class PasswordNotLoggedTest {

    static final String PASSWORD = "s3cret-hasp-4f9e";
    private static final String WRONG = "wr0ng-hasp-8d2c";
    private static final String CHANGED = "ch4nged-hasp-61ab";

    @Test
    void noPasswordInLogsExceptionsOrToString(RedisServer redis) throws Exception {
        List<String> texts = new ArrayList<>();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(captured, /* autoFlush= */ true, StandardCharsets.UTF_8);
        PrintStream err = System.err;
        PrintStream out = System.out;
        System.setErr(capture);
        System.setOut(capture);
        try (TcpProxy proxy = TcpProxy.start(redis.port());
             HaspClient admin = HaspClient.create("redis://:" + PASSWORD + "@" + redis.host() + ":" + redis.port())) {
            HaspConfig wrong = HaspConfig.builder().uri("redis://:" + WRONG + "@" + proxy.host() + ":" + proxy.port()).build();
            texts.add(wrong.toString());
            texts.add(describe(assertThrows(RedisAuthException.class, () -> HaspClient.create(wrong))));

            HaspConfig config = HaspConfig.builder().uri("redis://:" + PASSWORD + "@" + proxy.host() + ":" + proxy.port())
                    .commandTimeout(Duration.ofSeconds(5)).clientName("pw-test")
                    .reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200), 0.2).build();
            try (HaspClient client = HaspClient.create(config)) {
                texts.add(config.toString());
                texts.add(client.toString());
                ClientInternals.pubSub(client).subscribe("pw", (channel, message) -> { }).get(30, TimeUnit.SECONDS);

                proxy.delay(Duration.ofMillis(300));
                List<CompletableFuture<String>> inFlight = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    inFlight.add(client.commands().ping());
                }
                proxy.cutAll();
                proxy.delay(Duration.ZERO);
                for (CompletableFuture<String> f : inFlight) {
                    f.handle((pong, e) -> e == null ? "" : texts.add(describe(e))).get(30, TimeUnit.SECONDS);
                }
                awaitPing(client);

                admin.commands().execute(Replies.OK, "CONFIG", "SET", "requirepass", CHANGED).get(30, TimeUnit.SECONDS);
                proxy.cutAll();
                await(() -> captured.toString(StandardCharsets.UTF_8).contains("reconnect failed"),
                        "a refused reconnect was logged");
                texts.add(describe(client.commands().ping().handle((pong, e) -> e).get(30, TimeUnit.SECONDS)));
                admin.commands().execute(Replies.OK, "CONFIG", "SET", "requirepass", PASSWORD).get(30, TimeUnit.SECONDS);
                awaitPing(client);
            }
        } finally {
            System.setErr(err);
            System.setOut(out);
        }
        String logged = captured.toString(StandardCharsets.UTF_8);
        err.print(logged);
        assertTrue(logged.contains("connection lost"), "the capture holds the client's log lines:\n" + logged);
        assertTrue(logged.contains("reconnected"), "the capture holds the client's log lines:\n" + logged);
        for (String secret : List.of(PASSWORD, WRONG, CHANGED)) {
            assertFalse(logged.contains(secret), "a password was logged:\n" + logged);
            for (String text : texts) {
                assertFalse(text.contains(secret), "a password in: " + text);
            }
        }
    }

    private static void awaitPing(HaspClient client) throws Exception {
        await(() -> {
            try {
                return "PONG".equals(client.commands().ping().handle((pong, e) -> pong).get(30, TimeUnit.SECONDS));
            } catch (Exception e) {
                return false;
            }
        }, "the client reconnected");
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what + " within 30 s");
            TimeUnit.MILLISECONDS.sleep(20);   // polling a condition with a deadline
        }
    }

    /** toString, message and stack trace of a throwable and all its causes. */
    private static String describe(Throwable failure) {
        if (failure == null) {
            return "";
        }
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append('\n').append(String.valueOf(t)).append('\n').append(String.valueOf(t.getMessage()));
        }
        return text.toString();
    }
}
