package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.connection.Transport;
import io.hasp.lock.HaspLock;
import io.hasp.testing.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code redis-socket://}: commands and locks through a Unix domain socket with the native
 * transport, and a clear error where the native transport is off.
 */
class UnixSocketTest {

    private static Path directory;
    private static Path socket;
    private static RedisServer server;

    @BeforeAll
    static void start() throws Exception {
        // Socket paths are limited to about 100 bytes: a short directory under /tmp.
        directory = Files.createTempDirectory(Path.of("/tmp"), "hasp-sock-");
        socket = directory.resolve("redis.sock");
        server = RedisServer.builder().name("unix-socket").option("unixsocket", socket.toString())
                .option("unixsocketperm", "700").start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        Files.deleteIfExists(socket);
        Files.deleteIfExists(directory);
    }

    @Test
    void commandsAndLocksGoThroughTheSocket() throws Exception {
        assertTrue(Transport.nativeAvailable(), "this test runs where Netty's native epoll transport loads (Linux)");
        try (HaspClient client = HaspClient.create("redis-socket://" + socket + "?clientName=via-socket")) {
            assertEquals("OK", client.commands().set("k", "v").get(10, TimeUnit.SECONDS));
            String info = client.commands().execute(io.hasp.Replies.STRING, "CLIENT", "INFO").get(10, TimeUnit.SECONDS);
            assertTrue(info.contains("name=via-socket"), info);
            assertTrue(info.contains("addr=" + socket), "a Unix socket connection: " + info);
            HaspLock lock = client.getLock("socket-lock");
            lock.lock();
            assertTrue(lock.isHeldByCurrentThread());
            lock.unlock();
            assertEquals("redis-socket://" + socket, client.config().redactedUri());
        }
    }

    @Test
    void withoutTheNativeTransportTheErrorSaysWhy() {
        HaspConfig config = HaspConfig.builder().uri("redis-socket://" + socket).nativeTransport(false).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HaspClient.create(config));
        assertTrue(e.getMessage().contains("Unix domain sockets (redis-socket://) need Netty's native epoll transport"),
                e.getMessage());
        assertTrue(e.getMessage().contains("nativeTransport(false)"), e.getMessage());
    }
}
