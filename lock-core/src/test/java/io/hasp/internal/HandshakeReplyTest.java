package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisProtocolException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every handshake reply is checked for its type and content: a server that answers PING, HELLO,
 * AUTH, CLIENT SETNAME or SELECT with something else fails the connection with a
 * {@link RedisProtocolException} naming the command and the reply, at creation and, after a
 * reconnect, for the commands that were waiting for it.
 */
class HandshakeReplyTest {

    private static HaspConfig.Builder config(FakeRedis fake) {
        return HaspConfig.builder().host("127.0.0.1").port(fake.port()).poolSize(1).nativeTransport(false)
                .connectTimeout(Duration.ofSeconds(5)).commandTimeout(Duration.ofSeconds(5))
                .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(50), 0);
    }

    private static String failure(HaspConfig config) {
        RedisProtocolException e = assertThrows(RedisProtocolException.class, () -> HaspClient.create(config).close());
        return e.getMessage();
    }

    @Test
    void pingAnsweredWithAnIntegerFailsCreation() throws Exception {
        try (FakeRedis fake = new FakeRedis((connection, command) -> ":1\r\n")) {
            String message = failure(config(fake).build());
            assertTrue(message.contains("PING answered integer 1 (expected: +PONG)"), message);
        }
    }

    @Test
    void pingAnsweredWithOkFailsCreation() throws Exception {
        try (FakeRedis fake = new FakeRedis((connection, command) -> "+OK\r\n")) {
            String message = failure(config(fake).build());
            assertTrue(message.contains("PING answered +OK (expected: +PONG)"), message);
        }
    }

    @Test
    void helloAnsweredWithAnIntegerFailsCreation() throws Exception {
        try (FakeRedis fake = new FakeRedis((connection, command) -> ":3\r\n")) {
            String message = failure(config(fake).protocol(HaspConfig.Protocol.RESP3).build());
            assertTrue(message.contains("HELLO answered integer 3 (expected: a map"), message);
        }
    }

    @Test
    void authClientSetnameAndSelectRepliesAreChecked() throws Exception {
        try (FakeRedis fake = new FakeRedis((connection, command) -> command.get(0).equals("AUTH") ? ":1\r\n" : "+OK\r\n")) {
            String message = failure(config(fake).password("secret").build());
            assertTrue(message.contains("AUTH answered integer 1 (expected: +OK)"), message);
            assertTrue(!message.contains("secret"), message);
        }
        try (FakeRedis fake = new FakeRedis((connection, command) ->
                command.get(0).equals("CLIENT") ? "$4\r\nnope\r\n" : "+OK\r\n")) {
            String message = failure(config(fake).clientName("orders").build());
            assertTrue(message.contains("CLIENT SETNAME answered bulk string \"nope\" (expected: +OK)"), message);
        }
        try (FakeRedis fake = new FakeRedis((connection, command) -> command.get(0).equals("SELECT") ? "+PONG\r\n" : "+OK\r\n")) {
            String message = failure(config(fake).database(2).build());
            assertTrue(message.contains("SELECT answered +PONG (expected: +OK)"), message);
        }
    }

    @Test
    void commandsWaitingForAReconnectSeeTheHandshakeError() throws Exception {
        // Connections 1 and 2 (commands, pub/sub) behave; later ones answer PING with an integer.
        try (FakeRedis fake = new FakeRedis((connection, command) -> {
            if (command.get(0).equals("PING")) {
                return connection <= 2 ? "+PONG\r\n" : ":0\r\n";
            }
            return "$-1\r\n";
        })) {
            try (HaspClient client = HaspClient.create(config(fake).commandTimeout(Duration.ofSeconds(30)).build())) {
                assertTrue(client.commands().get("k").get(10, TimeUnit.SECONDS) == null);
                fake.dropConnections();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (fake.connections() < 3 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertTrue(fake.connections() >= 3, "the client reconnects");
                List<CompletableFuture<String>> waiting = List.of(client.commands().get("a"), client.commands().get("b"));
                for (CompletableFuture<String> command : waiting) {
                    ExecutionException e = assertThrows(ExecutionException.class, () -> command.get(20, TimeUnit.SECONDS));
                    RedisProtocolException protocol = assertInstanceOf(RedisProtocolException.class, e.getCause());
                    assertTrue(protocol.getMessage().contains("PING answered integer 0"), protocol.getMessage());
                }
            }
        }
    }
}
