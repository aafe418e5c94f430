package io.hasp.internal.connection;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The socket transport: native epoll when {@code netty-transport-native-epoll} is on the class
 * path and loads on this machine, NIO otherwise. The epoll classes are only touched inside
 * {@link EpollSupport}, so a class path without them never fails to load this class.
 *
 * <p>It also looks up host names ({@link #resolve}), on a thread of its own rather than on an event
 * loop: a lookup can block for as long as the system's resolver takes, and an event loop serves
 * every connection on it (by default, one loop serves the whole client).
 */
public final class Transport {

    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    private final EventLoopGroup group;
    private final Class<? extends SocketChannel> channelClass;
    private final boolean nativeTransport;
    private final ThreadPoolExecutor lookups;

    private Transport(EventLoopGroup group, Class<? extends SocketChannel> channelClass, boolean nativeTransport,
            ThreadFactory threadFactory) {
        this.group = group;
        this.channelClass = channelClass;
        this.nativeTransport = nativeTransport;
        // One thread at most, started on the first lookup and ended after a minute without one.
        this.lookups = new ThreadPoolExecutor(0, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), task -> {
            Thread thread = threadFactory.newThread(task);
            thread.setName(thread.getName() + "-dns");
            return thread;
        });
    }

    /**
     * Looks up a host name off the event loops (an IP address literal is parsed, not looked up).
     *
     * @param host a host name or an IP address literal
     * @return completes with the address on the lookup thread, or fails with the lookup's
     *     {@code UnknownHostException}, or with {@code RejectedExecutionException} once
     *     {@link #stopLookups()} ran
     */
    public CompletableFuture<InetAddress> resolve(String host) {
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
        if (literal != null) {
            try {
                return CompletableFuture.completedFuture(InetAddress.getByAddress(host, literal));
            } catch (UnknownHostException cannotHappen) {   // only for an address of a wrong length
                return CompletableFuture.failedFuture(cannotHappen);
            }
        }
        CompletableFuture<InetAddress> address = new CompletableFuture<>();
        try {
            lookups.execute(() -> {
                try {
                    address.complete(InetAddress.getByName(host));
                } catch (UnknownHostException | RuntimeException e) {
                    address.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException stopped) {
            address.completeExceptionally(stopped);
        }
        return address;
    }

    /** Stops the lookup thread; a lookup still running ends with the system's resolver timeout. */
    public void stopLookups() {
        lookups.shutdownNow();
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
                    EpollSupport.channelClass(), true, threadFactory);
        }
        IoHandlerFactory nio = NioIoHandler.newFactory();
        return new Transport(new MultiThreadIoEventLoopGroup(threads, threadFactory, nio), NioSocketChannel.class, false,
                threadFactory);
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
