package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.RedisConnectionException;
import io.hasp.internal.Futures;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Opens channels to one server: TCP connect with the connect timeout, then the TLS handshake when
 * TLS is on; or a Unix socket. It connects to the configured server, or, made by {@link #at}, to
 * another address with the same settings (a cluster node), or, made by {@link #following}, to
 * wherever a moving address points at each connect (the master of a Sentinel deployment).
 * Thread-safe; the returned futures complete on the channel's event loop.
 */
public final class Connector {

    private final HaspConfig config;
    private final Transport transport;
    private final SslContext sslContext;
    private final Endpoint endpoint;
    private final Supplier<InetSocketAddress> moving;   // null: always {@code endpoint}

    /**
     * A connector to the configured server ({@code host:port}, or the Unix socket).
     *
     * @param config the client's configuration
     * @param transport the event-loop group and channel type
     */
    public Connector(HaspConfig config, Transport transport) {
        this(config, transport, config.tls() ? TlsContexts.create(config) : null, Endpoint.of(config), null);
    }

    private Connector(HaspConfig config, Transport transport, SslContext sslContext, Endpoint endpoint,
            Supplier<InetSocketAddress> moving) {
        this.config = config;
        this.transport = transport;
        this.sslContext = sslContext;
        this.endpoint = endpoint;
        this.moving = moving;
    }

    /**
     * A connector to {@code host:port} over TCP with this one's settings: the same credentials, TLS
     * (one TLS context for all) and timeouts. For the nodes of a cluster.
     */
    public Connector at(String host, int port) {
        return new Connector(config, transport, sslContext, endpoint.at(host, port), null);
    }

    /**
     * A connector with this one's settings to the address {@code address} gives at each connect (an
     * unresolved {@code host:port}; null while there is none, and then an attempt to connect fails): a
     * connection made with it follows the address when it reconnects, and
     * {@link RedisConnection#redirect()} makes it reconnect.
     */
    public Connector following(Supplier<InetSocketAddress> address) {
        return new Connector(config, transport, sslContext, endpoint, address);
    }

    /** Where this connector's connections go now, and who they are there. */
    public Endpoint endpoint() {
        if (moving == null) {
            return endpoint;
        }
        InetSocketAddress now = moving.get();
        if (now == null) {
            throw new IllegalStateException("no server to connect to now");
        }
        return endpoint.at(now.getHostString(), now.getPort());
    }

    /** @return the client's configuration */
    public HaspConfig config() {
        return config;
    }

    /** The server's address for messages: {@code host:port}, or the socket's path. */
    String address() {
        return moving != null && moving.get() == null ? "(no server now)" : endpoint().address();
    }

    /** @return the transport */
    public Transport transport() {
        return transport;
    }

    /**
     * Connects a new channel on {@code loop} with {@code handler} as its last pipeline handler.
     *
     * @param loop the event loop the channel is registered with
     * @param handler the protocol handler
     * @return completes with the active (and TLS-established) channel, or fails with
     *     {@link RedisConnectionException}; the channel is closed on failure
     */
    CompletableFuture<Channel> open(EventLoop loop, ChannelHandler handler) {
        CompletableFuture<Channel> result = new CompletableFuture<>();
        Endpoint to;
        try {
            to = endpoint();
        } catch (IllegalStateException nowhere) {
            return CompletableFuture.failedFuture(new RedisConnectionException("cannot connect: " + nowhere.getMessage(),
                    nowhere));
        }
        boolean socket = to.socketPath() != null;
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.ALLOCATOR, config.allocator() != null ? config.allocator() : ByteBufAllocator.DEFAULT);
        if (socket) {
            // HaspClient.create checked that the native transport, the only one with Unix sockets, is in use.
            bootstrap.channel(transport.domainSocketChannelClass());
        } else {
            bootstrap.channel(transport.channelClass())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.SO_KEEPALIVE, true);
        }
        bootstrap
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (sslContext != null) {
                            ch.pipeline().addLast(newSslHandler(ch, to));
                        }
                        ch.pipeline().addLast(handler);
                    }
                });
        if (socket) {
            connect(bootstrap, new io.netty.channel.unix.DomainSocketAddress(to.socketPath().toString()), to, result);
            return result;
        }
        // The host name is looked up off the event loop, within the connect timeout; the connect then
        // goes on on the loop.
        transport.resolve(to.host())
                .orTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((address, failure) -> {
                    if (failure == null && loop.inEventLoop()) {
                        connect(bootstrap, new InetSocketAddress(address, to.port()), to, result);
                        return;
                    }
                    try {
                        loop.execute(() -> {
                            if (failure != null) {
                                result.completeExceptionally(cannotResolve(to, Futures.unwrap(failure)));
                            } else {
                                connect(bootstrap, new InetSocketAddress(address, to.port()), to, result);
                            }
                        });
                    } catch (RejectedExecutionException closed) {
                        result.completeExceptionally(new RedisClosedException("cannot connect to " + to.address()
                                + ": the client is closed"));
                    }
                });
        return result;
    }

    /**
     * The failure of a first connect that ran out of time.
     *
     * @param who the connection, for the message
     * @param lastCause why its last attempt failed
     * @param attempts how many attempts it made
     */
    RedisConnectionException cannotConnect(Object who, Throwable lastCause, int attempts) {
        return new RedisConnectionException(who + ": cannot connect to " + config.redactedUri()
                + " within the connect timeout of " + config.connectTimeout().toMillis() + " ms: " + attempts
                + " attempt(s), the last failed with: " + lastCause.getMessage(), lastCause);
    }

    private RedisConnectionException cannotResolve(Endpoint to, Throwable cause) {
        String why = cause instanceof TimeoutException
                ? "no answer from the host name lookup within the connect timeout of "
                        + config.connectTimeout().toMillis() + " ms"
                : cause instanceof UnknownHostException ? "unknown host" : String.valueOf(cause.getMessage());
        return new RedisConnectionException("cannot connect to " + to.address() + ": " + why, cause);
    }

    /** Connects to {@code address} and completes {@code result} as {@link #open} says. */
    private void connect(Bootstrap bootstrap, SocketAddress address, Endpoint to, CompletableFuture<Channel> result) {
        ChannelFuture connect = bootstrap.connect(address);
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(new RedisConnectionException(
                        "cannot connect to " + to.address() + ": " + f.cause().getMessage(), f.cause()));
                return;
            }
            Channel channel = connect.channel();
            SslHandler ssl = channel.pipeline().get(SslHandler.class);
            if (ssl == null) {
                result.complete(channel);
                return;
            }
            ssl.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    result.complete(channel);
                } else {
                    channel.close();
                    result.completeExceptionally(new RedisConnectionException(
                            "TLS handshake with " + to.address() + " failed: " + h.cause().getMessage(),
                            h.cause()));
                }
            });
        });
    }

    private SslHandler newSslHandler(Channel ch, Endpoint to) {
        SslHandler ssl = sslContext.newHandler(ch.alloc(), to.host(), to.port());
        ssl.setHandshakeTimeoutMillis(config.connectTimeout().toMillis());
        if (config.verifyHostname()) {
            SSLEngine engine = ssl.engine();
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");   // on whatever the provider's default
            engine.setSSLParameters(parameters);
        }
        return ssl;
    }
}
