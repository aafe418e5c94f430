package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.Replies;
import io.hasp.internal.topology.DefaultRedisCommands;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A flush that closes the channel inline: the connection's close listener runs inside the drain's
 * flush and retires the handler the drain is writing with. Nothing may escape the event loop (a
 * task failing there is only logged by Netty, so the test watches the log), and every command
 * the drain wrote, and every command a failure callback issues, completes: failed with
 * {@link RedisConnectionException}, or answered after the reconnect. None is left pending.
 */
@WithRedisServer
class CloseInFlushTest {

    private ClientRig rig;
    private RedisConnection connection;
    private RedisCommands commands;
    private final CloseOnFlush closer = new CloseOnFlush();

    @BeforeEach
    void connect(RedisServer redis) throws Exception {
        HaspConfig config = HaspConfig.builder().uri(redis.uri()).reconnectBackoff(Duration.ofMillis(10),
                Duration.ofMillis(100), 0.1).build();
        rig = new ClientRig(config, 1);
        connection = rig.connect(config);
        connection.eventLoop().submit(() -> connection.channel().pipeline().addFirst(closer)).get(30, TimeUnit.SECONDS);
        commands = new DefaultRedisCommands(new ConnectionPool(List.of(connection)), null);
    }

    @AfterEach
    void close() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void aChannelClosedInsideTheFlushLosesNothingAndThrowsNothing() throws Exception {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<CompletableFuture<String>> written = new ArrayList<>();
        List<CompletableFuture<String>> followUps = new CopyOnWriteArrayList<>();
        CountDownLatch callbacks = new CountDownLatch(20);
        try (PrintStream tee = new PrintStream(new TeeStream(log, originalErr), true, StandardCharsets.UTF_8)) {
            System.setErr(tee);
            // Hold the event loop so that all commands go out in one drain, whose flush closes.
            CompletableFuture<Void> release = new CompletableFuture<>();
            connection.eventLoop().execute(() -> release.join());
            closer.armed = true;
            for (int i = 0; i < 20; i++) {
                CompletableFuture<String> ping = commands.execute(Replies.STRING, "ECHO", "written-" + i);
                // A caller that reacts to the failure by sending again, from the failing thread.
                ping.whenComplete((reply, failure) -> {
                    followUps.add(commands.execute(Replies.STRING, "ECHO", "again"));
                    callbacks.countDown();
                });
                written.add(ping);
            }
            release.complete(null);
            for (CompletableFuture<String> ping : written) {
                ExecutionException failed = assertThrows(ExecutionException.class,
                        () -> ping.get(30, TimeUnit.SECONDS), "a command written into the closing flush fails");
                assertInstanceOf(RedisConnectionException.class, failed.getCause());
            }
            // The connection comes back, and the follow-ups sent from the failure callbacks complete.
            assertEquals("back", commands.execute(Replies.STRING, "ECHO", "back").get(30, TimeUnit.SECONDS));
            assertTrue(callbacks.await(30, TimeUnit.SECONDS), "every failure callback ran");
            for (CompletableFuture<String> again : followUps) {
                try {
                    assertEquals("again", again.get(30, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    assertInstanceOf(RedisConnectionException.class, e.getCause());
                }
            }
            // Anything Netty's event loop logs about a failed task would be printed by now.
            connection.eventLoop().submit(() -> { }).get(30, TimeUnit.SECONDS);
        } finally {
            System.setErr(originalErr);
        }
        String printed = log.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("A task raised an exception"), printed);
        assertFalse(printed.contains("NullPointerException"), printed);
    }

    /** Closes the channel inside the next flush, once armed; passes everything through otherwise. */
    private static final class CloseOnFlush extends ChannelOutboundHandlerAdapter {
        volatile boolean armed;

        @Override
        public boolean isSharable() {
            return true;
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (armed) {
                armed = false;
                ctx.channel().close();
                return;
            }
            ctx.flush();
        }
    }

    /** Copies what is printed to a buffer and to the original stream. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream copy;
        private final java.io.OutputStream out;

        TeeStream(java.io.OutputStream copy, java.io.OutputStream out) {
            this.copy = copy;
            this.out = out;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            copy.write(b);
            out.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            copy.write(b, off, len);
            out.write(b, off, len);
        }
    }
}
