package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.internal.topology.DefaultRedisCommands;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes are coalesced: commands issued faster than the event loop turns reach the socket in a
 * few writes and one flush per turn, not one flush per command.
 *
 * <p>A counting handler sits first in the channel's pipeline (next to the socket), so every
 * {@code write} and {@code flush} the connection makes on its way to the transport passes through
 * it, whatever handler or method issued it. To make "faster than the event loop turns" certain
 * rather than a matter of scheduling, the event loop is held busy while the commands are issued
 * (as it is on a loaded machine), then released. A connection that flushed once per command would
 * count 2,000 flushes here, 500 times the bound below; one that coalesces counts one or two per
 * turn. Holding the loop cannot help an implementation that flushes per command: the flushes
 * happen when the loop processes the commands, one per command, whenever that is.
 */
@WithRedisServer
class WriteCoalescingTest {

    private static final int COMMANDS = 2_000;

    private ClientRig rig;
    private RedisConnection connection;
    private RedisCommands commands;
    private final Counter counter = new Counter();

    @BeforeEach
    void connect(RedisServer redis) throws Exception {
        HaspConfig config = HaspConfig.builder().uri(redis.uri()).build();
        rig = new ClientRig(config, 1);
        connection = rig.connect(config);
        connection.eventLoop().submit(() -> connection.channel().pipeline().addFirst(counter)).get(30, TimeUnit.SECONDS);
        commands = new DefaultRedisCommands(new ConnectionPool(List.of(connection)), null);
    }

    @AfterEach
    void close() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void commandsFromOneThreadShareFlushes() throws Exception {
        List<CompletableFuture<Long>> replies = new ArrayList<>(COMMANDS);
        CountDownLatch release = holdEventLoop();
        try {
            for (int i = 0; i < COMMANDS; i++) {
                replies.add(commands.execute(Replies.LONG, "INCR", "one-thread"));
            }
        } finally {
            release.countDown();
        }
        for (int i = 0; i < COMMANDS; i++) {
            assertEquals(i + 1, replies.get(i).get(30, TimeUnit.SECONDS), "reply of command " + i);
        }
        assertCoalesced();
    }

    @Test
    void commandsFromEightThreadsShareFlushes() throws Exception {
        int perThread = COMMANDS / 8;
        ExecutorService callers = Executors.newFixedThreadPool(8);
        List<Future<List<CompletableFuture<String>>>> issued = new ArrayList<>();
        CountDownLatch release = holdEventLoop();
        try {
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < 8; t++) {
                int thread = t;
                issued.add(callers.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    List<CompletableFuture<String>> mine = new ArrayList<>(perThread);
                    for (int i = 0; i < perThread; i++) {
                        mine.add(commands.execute(Replies.STRING, "ECHO", thread + ":" + i));
                    }
                    return mine;
                }));
            }
            start.countDown();
            for (Future<List<CompletableFuture<String>>> f : issued) {
                f.get(30, TimeUnit.SECONDS);   // every command is queued before the loop is released
            }
        } finally {
            release.countDown();
            callers.shutdown();
        }
        assertTrue(callers.awaitTermination(30, TimeUnit.SECONDS), "caller threads ended");
        for (int t = 0; t < 8; t++) {
            List<CompletableFuture<String>> mine = issued.get(t).get();
            for (int i = 0; i < perThread; i++) {
                assertEquals(t + ":" + i, mine.get(i).get(30, TimeUnit.SECONDS));
            }
        }
        assertCoalesced();
    }

    /** Occupies the connection's event loop until the returned latch is released (or 30 s pass). */
    private CountDownLatch holdEventLoop() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        connection.eventLoop().execute(() -> {
            held.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(held.await(30, TimeUnit.SECONDS), "the event loop ran the holding task");
        return release;
    }

    private void assertCoalesced() {
        int flushes = counter.flushes.get();
        int writes = counter.writes.get();
        assertTrue(flushes >= 1, "the commands were flushed");
        assertTrue(flushes <= COMMANDS / 4, COMMANDS + " commands took " + flushes + " flushes (expected: <= "
                + COMMANDS / 4 + ")");
        assertTrue(writes <= COMMANDS / 4, COMMANDS + " commands took " + writes + " writes (expected: <= "
                + COMMANDS / 4 + ")");
    }

    /** Counts what reaches the transport; shared by the one channel it is added to. */
    @io.netty.channel.ChannelHandler.Sharable
    private static final class Counter extends ChannelOutboundHandlerAdapter {
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger flushes = new AtomicInteger();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            writes.incrementAndGet();
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes.incrementAndGet();
            ctx.flush();
        }
    }
}
