package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
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
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Opens channels to the configured server: TCP connect with the connect timeout, then the TLS
 * handshake when TLS is on. Thread-safe; the returned futures complete on the channel's event loop.
 */
public final class Connector {

    private final HaspConfig config;
    private final Transport transport;
    private final SslContext sslContext;

    /**
     * @param config the client's configuration
     * @param transport the event-loop group and channel type
     */
    public Connector(HaspConfig config, Transport transport) {
        this.config = config;
        this.transport = transport;
        this.sslContext = config.tls() ? TlsContexts.create(config) : null;
    }

    /** @return the client's configuration */
    public HaspConfig config() {
        return config;
    }

    /** The server's address for messages: {@code host:port}, or the socket's path. */
    String address() {
        return config.socketPath() != null ? config.socketPath().toString() : config.host() + ":" + config.port();
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
        boolean socket = config.socketPath() != null;
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
                            ch.pipeline().addLast(newSslHandler(ch));
                        }
                        ch.pipeline().addLast(handler);
                    }
                });
        ChannelFuture connect = socket
                ? bootstrap.connect(new io.netty.channel.unix.DomainSocketAddress(config.socketPath().toString()))
                : bootstrap.connect(config.host(), config.port());
        connect.addListener(f -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(new RedisConnectionException(
                        "cannot connect to " + address() + ": " + f.cause().getMessage(), f.cause()));
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
                            "TLS handshake with " + config.host() + ":" + config.port() + " failed: " + h.cause().getMessage(),
                            h.cause()));
                }
            });
        });
        return result;
    }

    private SslHandler newSslHandler(Channel ch) {
        SslHandler ssl = sslContext.newHandler(ch.alloc(), config.host(), config.port());
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
