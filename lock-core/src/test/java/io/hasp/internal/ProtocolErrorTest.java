package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisProtocolException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A fake server that answers the handshake, then sends bytes that are not RESP. */
class ProtocolErrorTest {

    @Test
    void aMalformedReplyClosesTheConnectionAndFailsEverythingInFlight() throws Exception {
        CountDownLatch reconnected = new CountDownLatch(3);   // command + pub/sub connection, then a reconnect
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> serve(server, reconnected), "fake-redis");
            acceptor.start();
            try (HaspClient client = HaspClient.create(HaspConfig.builder().host("127.0.0.1").port(server.getLocalPort())
                    .poolSize(1).nativeTransport(false).commandTimeout(Duration.ofSeconds(5))
                    .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100), 0).build())) {
                CompletableFuture<String> first = client.commands().get("a");
                CompletableFuture<String> second = client.commands().get("b");
                ExecutionException e = assertThrows(ExecutionException.class, () -> first.get(10, TimeUnit.SECONDS));
                RedisProtocolException protocol = assertInstanceOf(RedisProtocolException.class, e.getCause());
                assertTrue(protocol.getMessage().contains("malformed"), protocol.getMessage());
                ExecutionException e2 = assertThrows(ExecutionException.class, () -> second.get(10, TimeUnit.SECONDS));
                assertInstanceOf(RedisProtocolException.class, e2.getCause());
                assertTrue(reconnected.await(10, TimeUnit.SECONDS), "the client reconnects after closing the broken connection");
            } finally {
                server.close();
                acceptor.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        assertEquals(false, Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("fake-redis")));
    }

    private static void serve(ServerSocket server, CountDownLatch connections) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.countDown();
                Thread handler = new Thread(() -> answer(socket), "fake-redis-conn");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void answer(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            byte[] buffer = new byte[4096];
            boolean handshakeDone = false;
            while (in.read(buffer) > 0) {
                out.write((handshakeDone ? "?not resp\r\n" : "+PONG\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                handshakeDone = true;
            }
        } catch (IOException closed) {
            // the client closed the connection
        }
    }
}
