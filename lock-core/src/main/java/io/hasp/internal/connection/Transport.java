package io.hasp.internal.connection;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket transport: native epoll when {@code netty-transport-native-epoll} is on the class
 * path and loads on this machine, NIO otherwise. The epoll classes are only touched inside
 * {@link EpollSupport}, so a class path without them never fails to load this class.
 */
public final class Transport {

    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final boolean nativeTransport;

    private Transport(EventLoopGroup group, Class<? extends SocketChannel> channelClass, boolean nativeTransport) {
        this.group = group;
        this.channelClass = channelClass;
        this.nativeTransport = nativeTransport;
    }

    /**
     * Creates the event-loop group.
     *
     * @param threads number of event-loop threads, &gt; 0
     * @param preferNative whether to use epoll when it is available
     * @param threadFactory creates (and names) the threads
     * @return the transport; its group must be shut down by the caller
     */
    public static Transport create(int threads, boolean preferNative, ThreadFactory threadFactory) {
        if (preferNative && epollAvailable()) {
            return new Transport(new MultiThreadIoEventLoopGroup(threads, threadFactory, EpollSupport.factory()),
                    EpollSupport.channelClass(), true);
        }
        IoHandlerFactory nio = NioIoHandler.newFactory();
        return new Transport(new MultiThreadIoEventLoopGroup(threads, threadFactory, nio), NioSocketChannel.class, false);
    }

    private static boolean epollAvailable() {
        try {
            return EpollSupport.available();
        } catch (LinkageError notOnClassPath) {
            log.debug("native epoll transport not on the class path, using NIO");
            return false;
        }
    }

    /** @return the event-loop group */
    public EventLoopGroup group() {
        return group;
    }

    /** @return the socket channel class matching the group */
    public Class<? extends SocketChannel> channelClass() {
        return channelClass;
    }

    /** @return {@code true} when the native epoll transport is in use */
    public boolean isNative() {
        return nativeTransport;
    }

    /** @return the Unix domain socket channel class of the native transport, or {@code null} on NIO */
    public Class<? extends Channel> domainSocketChannelClass() {
        return nativeTransport ? EpollSupport.domainSocketChannelClass() : null;
    }

    /**
     * Whether the native epoll transport loads on this machine (Linux, with Netty's native epoll
     * jars on the class or module path).
     */
    public static boolean nativeAvailable() {
        return epollAvailable();
    }

    /** The only place that names epoll classes. */
    private static final class EpollSupport {
        static boolean available() {
            return io.netty.channel.epoll.Epoll.isAvailable();
        }

        static IoHandlerFactory factory() {
            return io.netty.channel.epoll.EpollIoHandler.newFactory();
        }

        static Class<? extends SocketChannel> channelClass() {
            return io.netty.channel.epoll.EpollSocketChannel.class;
        }

        static Class<? extends Channel> domainSocketChannelClass() {
            return io.netty.channel.epoll.EpollDomainSocketChannel.class;
        }
    }
}
