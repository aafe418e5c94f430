package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code HaspClient.create} on a flapping start: connections dropped during the handshake are
 * retried with the reconnect backoff until the connect timeout; when it gives up, the error says
 * how many attempts were made and why the last one failed. Each creation runs in the background
 * and is awaited with a generous deadline, so a hang fails the test instead of blocking it.
 */
class CreationRetryTest {

    private static HaspConfig.Builder config(int port) {
        return HaspConfig.builder().host("127.0.0.1").port(port).poolSize(1).nativeTransport(false)
                .connectTimeout(Duration.ofSeconds(2)).commandTimeout(Duration.ofSeconds(1))
                .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100), 0.1);
    }

    private static HaspClient createInBackground(HaspConfig config) throws Exception {
        CompletableFuture<HaspClient> creation = CompletableFuture.supplyAsync(() -> HaspClient.create(config));
        try {
            return creation.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    @Test
    void connectionsDroppedDuringTheHandshakeAreRetried() throws Exception {
        // The first three connections are closed on their first command; later ones behave.
        try (FakeRedis fake = new FakeRedis((connection, command) -> {
            if (connection <= 3) {
                return null;
            }
            return command.get(0).equals("PING") ? "+PONG\r\n" : "$-1\r\n";
        })) {
            try (HaspClient client = createInBackground(config(fake.port()).build())) {
                assertEquals(null, client.commands().get("k").get(10, TimeUnit.SECONDS));
            }
            assertTrue(fake.connections() >= 5, "three dropped, then the command and pub/sub connections: "
                    + fake.connections());
        }
    }

    @Test
    void nothingListeningFailsWithTheAttemptsAndTheLastCause() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        RedisConnectionException e = assertThrows(RedisConnectionException.class,
                () -> createInBackground(config(port).build()));
        assertTrue(e.getMessage().matches("(?s).*cannot connect to redis://127\\.0\\.0\\.1:" + port
                + " within the connect timeout of 2000 ms: [0-9]+ attempt\\(s\\), the last failed with: .*"), e.getMessage());
        assertTrue(attempts(e.getMessage()) > 1, "retried: " + e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains("refused"), e.getMessage());
    }

    @Test
    void aServerThatNeverAnswersFailsWithinTheConnectTimeout() throws Exception {
        try (FakeRedis silent = new FakeRedis((connection, command) -> "")) {
            RedisConnectionException e = assertThrows(RedisConnectionException.class,
                    () -> createInBackground(config(silent.port()).commandTimeout(Duration.ofSeconds(30)).build()));
            assertTrue(e.getMessage().contains("within the connect timeout of 2000 ms: 1 attempt(s)"), e.getMessage());
            assertInstanceOf(io.hasp.RedisTimeoutException.class, e.getCause(), e.getMessage());
        }
    }

    private static int attempts(String message) {
        String count = message.replaceAll("(?s).*ms: ([0-9]+) attempt\\(s\\).*", "$1");
        return Integer.parseInt(count);
    }
}
