package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import io.netty.channel.Channel;
import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandle;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The client runs on native epoll when it loads on this machine and on NIO otherwise (or when
 * native transport is turned off): checked on the channel class of a real connection, and on the
 * event loop that runs a client's pub/sub listener.
 */
@WithRedisServer
class TransportTest {

    @Test
    void connectionChannelIsEpollWhenAvailableElseNio(RedisServer redis) throws Exception {
        Class<?> channelClass = connectedChannelClass(HaspConfig.builder().uri(redis.uri()).build());
        if (Epoll.isAvailable()) {
            assertEquals(EpollSocketChannel.class, channelClass);
        } else {
            assertEquals(NioSocketChannel.class, channelClass, "epoll unavailable: " + Epoll.unavailabilityCause());
        }
    }

    @Test
    void connectionChannelIsNioWhenNativeIsOff(RedisServer redis) throws Exception {
        Class<?> channelClass = connectedChannelClass(HaspConfig.builder().uri(redis.uri()).nativeTransport(false).build());
        assertEquals(NioSocketChannel.class, channelClass);
    }

    @Test
    void clientEventLoopIsEpollWhenAvailableElseNio(RedisServer redis) throws Exception {
        assertEventLoop(HaspConfig.builder().uri(redis.uri()).build(), Epoll.isAvailable());
        assertEventLoop(HaspConfig.builder().uri(redis.uri()).nativeTransport(false).build(), false);
    }

    private static void assertEventLoop(HaspConfig config, boolean expectEpoll) throws Exception {
        CompletableFuture<EventExecutor> loop = new CompletableFuture<>();
        try (HaspClient client = HaspClient.create(config)) {
            ClientInternals.pubSub(client).subscribe("transport", (channel, message) -> loop.complete(ThreadExecutorMap.currentExecutor()))
                    .get(30, TimeUnit.SECONDS);
            client.commands().publish("transport", "m").get(30, TimeUnit.SECONDS);
            EventExecutor executor = loop.get(30, TimeUnit.SECONDS);
            assertNotNull(executor, "the listener ran on an event loop");
            IoEventLoop ioLoop = (IoEventLoop) executor;
            assertEquals(expectEpoll, ioLoop.isCompatible(EpollIoHandle.class), "epoll event loop: " + ioLoop);
            assertEquals(!expectEpoll, ioLoop.isCompatible(NioIoHandle.class), "NIO event loop: " + ioLoop);
        }
    }

    private static Class<?> connectedChannelClass(HaspConfig config) throws Exception {
        int number = ClientThreads.nextClientNumber();
        ClientThreads threads = new ClientThreads("hasp-io", number);
        HashedWheelTimer timer = new HashedWheelTimer(new ClientThreads("hasp-timer", number), 10, TimeUnit.MILLISECONDS);
        Transport transport = Transport.create(1, config.nativeTransport(), threads);
        RedisConnection connection = new RedisConnection("cmd-0", new Connector(config, transport),
                transport.group().next(), timer, null);
        try {
            connection.start().get(30, TimeUnit.SECONDS);
            Channel channel = connection.eventLoop().submit(connection::channel).get(30, TimeUnit.SECONDS);
            assertEquals(transport.channelClass(), channel.getClass());
            assertEquals(channel instanceof EpollSocketChannel, transport.isNative());
            return channel.getClass();
        } finally {
            connection.close().get(30, TimeUnit.SECONDS);
            transport.group().shutdownGracefully(0, 2, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
            timer.stop();
            assertTrue(threads.join(30, TimeUnit.SECONDS), "event-loop threads ended");
        }
    }
}
