package io.hasp.internal.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.internal.ClientInternals;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(RedisServerExtension.class)
class PubSubTest {

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(20, TimeUnit.SECONDS);
    }

    private static HaspClient client(RedisServer redis, HaspConfig.Protocol protocol) {
        return HaspClient.create(HaspConfig.builder().uri(redis.uri()).protocol(protocol)
                .commandTimeout(java.time.Duration.ofSeconds(30)).build());
    }

    private static long subscribers(HaspClient client, String channel) throws Exception {
        List<String> reply = get(client.commands().execute(Replies.STRING_LIST, "PUBSUB", "NUMSUB", channel));
        return Long.parseLong(reply.get(1));
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void listenersShareOneServerSubscriptionUntilTheLastLeaves(HaspConfig.Protocol protocol, RedisServer redis) throws Exception {
        try (HaspClient client = client(redis, protocol)) {
            BlockingQueue<String> first = new LinkedBlockingQueue<>();
            BlockingQueue<String> second = new LinkedBlockingQueue<>();
            Subscription a = get(ClientInternals.pubSub(client).subscribe("news", (channel, message) -> first.add(channel + "=" + message)));
            Subscription b = get(ClientInternals.pubSub(client).subscribe("news", (channel, message) -> second.add(message)));
            assertEquals("news", a.channel());
            assertEquals(1L, subscribers(client, "news"));
            assertEquals(1L, get(client.commands().publish("news", "hello")));
            assertEquals("news=hello", first.poll(10, TimeUnit.SECONDS));
            assertEquals("hello", second.poll(10, TimeUnit.SECONDS));

            get(a.unsubscribe());
            get(a.unsubscribe());   // idempotent
            assertEquals(1L, subscribers(client, "news"));
            get(client.commands().publish("news", "only-b"));
            assertEquals("only-b", second.poll(10, TimeUnit.SECONDS));
            get(b.unsubscribe());
            assertEquals(0L, subscribers(client, "news"));
            assertTrue(first.isEmpty());

            Subscription again = get(ClientInternals.pubSub(client).subscribe("news", (channel, message) -> first.add(message)));
            get(client.commands().publish("news", "again"));
            assertEquals("again", first.poll(10, TimeUnit.SECONDS));
            get(again.unsubscribe());
        }
    }

    @Test
    void aThrowingListenerDoesNotBreakTheConnectionOrOtherListeners(RedisServer redis) throws Exception {
        try (HaspClient client = client(redis, HaspConfig.Protocol.RESP2)) {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            get(ClientInternals.pubSub(client).subscribe("bad", (channel, message) -> {
                throw new IllegalStateException("listener bug (expected by the test)");
            }));
            get(ClientInternals.pubSub(client).subscribe("bad", (channel, message) -> received.add(message)));
            get(client.commands().publish("bad", "1"));
            get(client.commands().publish("bad", "2"));
            assertEquals("1", received.poll(10, TimeUnit.SECONDS));
            assertEquals("2", received.poll(10, TimeUnit.SECONDS));
        }
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void tenThousandChannelsOnOneConnectionEachGetTheirMessage(HaspConfig.Protocol protocol, RedisServer redis) throws Exception {
        int channels = 10_000;
        try (HaspClient client = client(redis, protocol)) {
            CountDownLatch received = new CountDownLatch(channels);
            AtomicInteger wrong = new AtomicInteger();
            List<CompletableFuture<Subscription>> subscriptions = new ArrayList<>(channels);
            for (int i = 0; i < channels; i++) {
                String expected = "m" + i;
                subscriptions.add(ClientInternals.pubSub(client).subscribe("ch:" + i, (channel, message) -> {
                    if (!message.equals(expected) || !channel.equals("ch:" + expected.substring(1))) {
                        wrong.incrementAndGet();
                    }
                    received.countDown();
                }));
            }
            CompletableFuture.allOf(subscriptions.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            List<CompletableFuture<Long>> publishes = new ArrayList<>(channels);
            for (int i = 0; i < channels; i++) {
                publishes.add(client.commands().publish("ch:" + i, "m" + i));
            }
            CompletableFuture.allOf(publishes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            for (CompletableFuture<Long> publish : publishes) {
                assertEquals(1L, publish.join());
            }
            assertTrue(received.await(60, TimeUnit.SECONDS), () -> received.getCount() + " messages missing");
            assertEquals(0, wrong.get());
            List<CompletableFuture<Void>> gone = new ArrayList<>(channels);
            for (CompletableFuture<Subscription> subscription : subscriptions) {
                gone.add(subscription.join().unsubscribe());
            }
            CompletableFuture.allOf(gone.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
            assertEquals(0L, subscribers(client, "ch:1"));
        }
    }

    @Test
    void subscribeAfterCloseFailsWithClosed(RedisServer redis) {
        HaspClient client = client(redis, HaspConfig.Protocol.RESP2);
        client.close();
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> get(ClientInternals.pubSub(client).subscribe("late", (c, m) -> { })));
        assertInstanceOf(RedisClosedException.class, e.getCause());
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void aRefusedSubscriptionFailsWithTheServersAnswerAndSparesTheOthers(HaspConfig.Protocol protocol) throws Exception {
        try (RedisServer redis = RedisServer.builder().name("channel-acl")
                        .option("user", "limited", "on", ">pw", "~*", "resetchannels", "&allowed:*", "+@all").start();
                HaspClient client = HaspClient.create(HaspConfig.builder()
                        .uri("redis://limited:pw@" + redis.host() + ":" + redis.port()).protocol(protocol)
                        .commandTimeout(java.time.Duration.ofSeconds(30)).build())) {
            PubSub pubSub = ClientInternals.pubSub(client);
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            Subscription a = get(pubSub.subscribe("allowed:a", (channel, message) -> received.add(channel + "=" + message)));
            for (int attempt = 0; attempt < 2; attempt++) {
                CompletableFuture<Subscription> refused = pubSub.subscribe("forbidden", (channel, message) -> { });
                // Well before the 30 s command timeout: the error answers the SUBSCRIBE it was sent for.
                ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(10, TimeUnit.SECONDS));
                RedisServerException cause = assertInstanceOf(RedisServerException.class, e.getCause());
                assertEquals("NOPERM", cause.code());
            }
            Subscription b = get(pubSub.subscribe("allowed:b", (channel, message) -> received.add(channel + "=" + message)));
            get(client.commands().publish("allowed:a", "1"));
            get(client.commands().publish("allowed:b", "2"));
            assertEquals("allowed:a=1", received.poll(10, TimeUnit.SECONDS));
            assertEquals("allowed:b=2", received.poll(10, TimeUnit.SECONDS));
            get(a.unsubscribe());
            get(b.unsubscribe());
        }
    }
}
