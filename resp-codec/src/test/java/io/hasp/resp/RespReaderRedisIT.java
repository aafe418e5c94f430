package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every reply type a real redis-server produces, RESP2 and RESP3 (after {@code HELLO 3}), decoded
 * by {@link RespValueDecoder} on a Netty channel, with commands encoded by {@link RespWriter}.
 */
@ExtendWith(LeakCheck.class)
@WithRedisServer(options = "enable-debug-command yes")
class RespReaderRedisIT {

    private EventLoopGroup group;
    private Channel channel;
    private final BlockingQueue<Object> replies = new LinkedBlockingQueue<>();

    @BeforeEach
    void connect(RedisServer redis) throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new RespValueDecoder(), new SimpleChannelInboundHandler<RespValue>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, RespValue value) {
                                replies.add(value);
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                replies.add(cause);
                                ctx.close();
                            }
                        });
                    }
                })
                .connect(redis.host(), redis.port()).sync().channel();
        assertEquals(new RespSimpleString("OK"), call("FLUSHALL"));
    }

    @AfterEach
    void close() throws InterruptedException {
        channel.close().sync();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
    }

    @Test
    void decodesResp2Replies() {
        assertEquals(new RespSimpleString("PONG"), call("PING"));
        assertEquals(new RespSimpleString("OK"), call("SET", "k", "välue"));
        assertEquals(RespBulkString.of("välue"), call("GET", "k"));
        assertEquals(RespNull.INSTANCE, call("GET", "missing"));
        assertEquals(new RespInteger(1), call("INCR", "n"));
        assertEquals(new RespInteger(-9), call("DECRBY", "n", "10"));
        assertEquals(new RespInteger(3), call("RPUSH", "l", "a", "", "c"));
        assertEquals(RespArray.of(RespBulkString.of("a"), RespBulkString.of(""), RespBulkString.of("c")),
                call("LRANGE", "l", "0", "-1"));
        assertEquals(RespArray.of(), call("LRANGE", "missing", "0", "-1"));
        assertEquals(RespNull.INSTANCE, call("BLPOP", "empty", "0.01"));
        assertEquals("WRONGTYPE", assertInstanceOf(RespError.class, call("GET", "l")).code());
        assertEquals(RespArray.of(new RespInteger(1), RespArray.of(new RespInteger(2), RespBulkString.of("x")),
                RespNull.INSTANCE), call("EVAL", "return {1, {2, 'x'}, false}", "0"));
        assertEquals(RespArray.of(new RespInteger(1)), call("EVAL", "return {1, nil, 3}", "0"));
        assertEquals(RespArray.of(RespBulkString.of("maxmemory-policy"), RespBulkString.of("noeviction")),
                call("CONFIG", "GET", "maxmemory-policy"));
    }

    @Test
    void decodesResp3Replies() {
        RespMap hello = assertInstanceOf(RespMap.class, call("HELLO", "3"));
        assertEquals(new RespInteger(3), hello.entries().get(RespBulkString.of("proto")));
        assertEquals(new RespInteger(2), call("HSET", "h", "f1", "v1", "f2", "v2"));
        assertEquals(new RespMap(RespFixtures.map(RespBulkString.of("f1"), RespBulkString.of("v1"),
                RespBulkString.of("f2"), RespBulkString.of("v2"))), call("HGETALL", "h"));
        assertEquals(new RespMap(RespFixtures.map(RespBulkString.of("maxmemory-policy"), RespBulkString.of("noeviction"))),
                call("CONFIG", "GET", "maxmemory-policy"));
        assertEquals(new RespInteger(1), call("SADD", "s", "m"));
        assertEquals(RespSet.of(RespBulkString.of("m")), call("SMEMBERS", "s"));
        assertEquals(new RespInteger(2), call("ZADD", "z", "1.5", "a", "inf", "b"));
        assertEquals(new RespDouble(1.5), call("ZSCORE", "z", "a"));
        assertEquals(new RespDouble(Double.POSITIVE_INFINITY), call("ZSCORE", "z", "b"));
        assertEquals(RespNull.INSTANCE, call("GET", "missing"));
        assertEquals(RespNull.INSTANCE, call("BLPOP", "empty", "0.01"));
        assertEquals(new RespBoolean(true), call("EVAL", "redis.setresp(3); return true", "0"));
        assertEquals(new RespBoolean(false), call("EVAL", "redis.setresp(3); return false", "0"));
        // Redis 7 sends 3.141 here, Redis 6.2 sends 3.14159265359: both are a double near pi.
        RespValue pi = call("DEBUG", "PROTOCOL", "double");
        assertInstanceOf(RespDouble.class, pi);
        assertEquals(Math.PI, ((RespDouble) pi).value(), 0.001);
        assertEquals(new RespBigNumber(new BigInteger("1234567999999999999999999999999999999")),
                call("DEBUG", "PROTOCOL", "bignum"));
        assertEquals(new RespVerbatimString("txt", "This is a verbatim\nstring"), call("DEBUG", "PROTOCOL", "verbatim"));
        assertEquals(new RespBoolean(true), call("DEBUG", "PROTOCOL", "true"));
        assertEquals(RespNull.INSTANCE, call("DEBUG", "PROTOCOL", "null"));
        RespMap map = assertInstanceOf(RespMap.class, call("DEBUG", "PROTOCOL", "map"));
        assertEquals(new RespBoolean(true), map.entries().get(new RespInteger(1)));
        assertEquals(3, assertInstanceOf(RespSet.class, call("DEBUG", "PROTOCOL", "set")).elements().size());
        RespAttribute attributed = assertInstanceOf(RespAttribute.class, call("DEBUG", "PROTOCOL", "attrib"));
        assertEquals(RespArray.of(RespBulkString.of("key:123"), new RespInteger(90)),
                attributed.attributes().get(RespBulkString.of("key-popularity")));
        assertEquals(RespBulkString.of("Some real reply following the attribute"), attributed.value());
        assertEquals(RespPush.of(RespBulkString.of("server-cpu-usage"), new RespInteger(42)),
                call("DEBUG", "PROTOCOL", "push"));
        assertEquals(RespBulkString.of("Some real reply following the push reply"), reply());
        RespVerbatimString info = assertInstanceOf(RespVerbatimString.class, call("INFO", "server"));
        assertTrue(info.content().contains("redis_version:"), info.content());
        assertEquals("ERR", assertInstanceOf(RespError.class, call("NOSUCHCOMMAND")).code());
    }

    @Test
    void decodesResp3PushMessages() {
        assertInstanceOf(RespMap.class, call("HELLO", "3"));
        assertEquals(RespPush.of(RespBulkString.of("subscribe"), RespBulkString.of("ch"), new RespInteger(1)),
                call("SUBSCRIBE", "ch"));
        send("PUBLISH", "ch", "hello");
        Set<RespValue> got = Set.of(reply(), reply());
        assertEquals(Set.of(new RespInteger(1),
                RespPush.of(RespBulkString.of("message"), RespBulkString.of("ch"), RespBulkString.of("hello"))), got);
        assertEquals(RespPush.of(RespBulkString.of("unsubscribe"), RespBulkString.of("ch"), new RespInteger(0)),
                call("UNSUBSCRIBE", "ch"));
    }

    @Test
    void pipelinesManyCommandsInOneBuffer() {
        CommandName incr = CommandName.of("INCR");
        int commands = 1000;
        int size = commands * (incr.headerSize(1) + RespWriter.bulkSize("counter"));
        ByteBuf out = channel.alloc().buffer(size);
        for (int i = 0; i < commands; i++) {
            incr.writeHeader(out, 1);
            RespWriter.writeBulk(out, "counter");
        }
        assertEquals(size, out.readableBytes());
        channel.writeAndFlush(out);
        for (int i = 1; i <= commands; i++) {
            assertEquals(new RespInteger(i), reply());
        }
    }

    private RespValue call(String... args) {
        send(args);
        return reply();
    }

    private void send(String... args) {
        CommandName name = CommandName.of(args[0]);
        List<String> rest = List.of(args).subList(1, args.length);
        int size = name.headerSize(rest.size()) + rest.stream().mapToInt(RespWriter::bulkSize).sum();
        ByteBuf out = channel.alloc().buffer(size);
        name.writeHeader(out, rest.size());
        rest.forEach(arg -> RespWriter.writeBulk(out, arg));
        channel.writeAndFlush(out);
    }

    private RespValue reply() {
        Object reply;
        try {
            reply = replies.poll(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertNotNull(reply, "no reply within 10 s");
        if (reply instanceof Throwable t) {
            throw new AssertionError("decoding failed", t);
        }
        return (RespValue) reply;
    }

}
