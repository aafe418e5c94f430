package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import io.hasp.testing.WithRedisServer;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every buffer the client allocates is released: commands, replies (whole and split), pub/sub,
 * timeouts with late replies, NOSCRIPT retries, a cut connection and close() with commands
 * pending. An unpooled allocator counts the bytes still allocated; it must be 0 afterwards.
 */
@WithRedisServer(options = {"enable-debug-command yes"})
class BufferReleaseTest {

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void noBufferOutlivesTheClient(HaspConfig.Protocol protocol, RedisServer redis) throws Exception {
        AtomicInteger allocations = new AtomicInteger();
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(/* preferDirect= */ true);
        AbstractByteBufAllocator counting = new AbstractByteBufAllocator(/* preferDirect= */ true) {
            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                allocations.incrementAndGet();
                return allocator.heapBuffer(initialCapacity, maxCapacity);
            }

            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                allocations.incrementAndGet();
                return allocator.directBuffer(initialCapacity, maxCapacity);
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        };
        try (TcpProxy proxy = TcpProxy.start(redis.port())) {
            HaspConfig config = HaspConfig.builder().uri(proxy.uri()).protocol(protocol)
                    .allocator(counting).commandTimeout(Duration.ofSeconds(20))
                    .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100), 0.2).build();
            HaspClient client = HaspClient.create(config);
            HaspClient impatient = HaspClient.create(config.toBuilder().poolSize(1).commandTimeout(Duration.ofMillis(300)).build());
            RedisCommands redis1 = client.commands();
            List<CompletableFuture<?>> all = new ArrayList<>();
            String big = "x".repeat(200_000);   // replies that arrive in several reads
            for (int i = 0; i < 200; i++) {
                all.add(redis1.set("k" + i, i % 20 == 0 ? big : "v" + i));
                all.add(redis1.get("k" + i));
            }
            all.add(redis1.execute(Replies.VALUE, "HELLO"));
            all.add(ClientInternals.pubSub(client).subscribe("c", (c, m) -> { }));
            all.add(redis1.publish("c", "m"));
            CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);

            Script script = Script.of("echo", "return ARGV[1]");
            redis1.execute(Replies.OK, "SCRIPT", "FLUSH").get(10, TimeUnit.SECONDS);
            assertEquals("a", redis1.evalsha(script, Replies.STRING, List.of(), "a").get(10, TimeUnit.SECONDS));

            CompletableFuture<Void> sleeping = impatient.commands().execute(Replies.VOID, "DEBUG", "SLEEP", "0.8");
            CompletableFuture<String> late = impatient.commands().get("k1");   // times out; its late reply is dropped
            CompletableFuture.allOf(sleeping, late).handle((ok, e) -> null).get(10, TimeUnit.SECONDS);

            proxy.delay(Duration.ofMillis(200));
            for (int i = 0; i < 100; i++) {
                redis1.get("k" + i);   // in flight when the link is cut
            }
            proxy.cutAll();
            proxy.delay(Duration.ZERO);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                if (redis1.ping().handle((pong, e) -> pong).get(10, TimeUnit.SECONDS) != null) {
                    break;
                }
            }
            redis1.execute(Replies.VOID, "BLPOP", "nothing", 0);   // pending at close
            impatient.commands().execute(Replies.VOID, "BLPOP", "nothing", 0);
            client.close();
            impatient.close();
        }
        assertTrue(allocations.get() > 10, "the client allocated through the configured allocator: " + allocations);
        assertEquals(0, allocator.metric().usedDirectMemory(), "direct bytes still allocated");
        assertEquals(0, allocator.metric().usedHeapMemory(), "heap bytes still allocated");
    }
}
