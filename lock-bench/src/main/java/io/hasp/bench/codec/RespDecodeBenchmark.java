package io.hasp.bench.codec;

import io.hasp.resp.RespReader;
import io.hasp.resp.RespValueDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decode throughput on {@link ReplyMix} (integers, nil, short bulk strings, {@code +OK}, arrays of
 * bulk strings, errors): hasp's {@link RespReader} with a sink (no objects), hasp's
 * {@link RespValueDecoder} (value trees) and Netty's codec-redis ({@code RedisDecoder} +
 * {@code RedisBulkStringAggregator} + {@code RedisArrayAggregator}), all fed the same bytes.
 * Scores are replies per second ({@code @OperationsPerInvocation}); MB/s = score x
 * {@link #mixBytesPerReply()} / 1e6. With {@code -prof gc}, {@code gc.alloc.rate.norm} is bytes
 * allocated per reply.
 *
 * <p>Run: {@code ./mvnw -B -q package -pl lock-bench -am -DskipTests && java -jar
 * lock-bench/target/benchmarks.jar 'io.hasp.bench.codec.RespDecodeBenchmark' -f 1 -wi 2 -i 3 -w 2s -r 2s -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RespDecodeBenchmark {

    private ByteBuf mix;
    private RespReader reader;
    private BlackholeSink sink;
    private EmbeddedChannel hasp;
    private EmbeddedChannel netty;

    /**
     * Returns the average size of a reply in the mix, for converting replies/s into MB/s.
     *
     * @return bytes per reply
     */
    public static double mixBytesPerReply() {
        return (double) ReplyMix.bytes().length / ReplyMix.REPLIES;
    }

    /**
     * Prepares the input and the decoders.
     *
     * @param blackhole the JMH blackhole
     */
    @Setup(Level.Trial)
    public void setUp(Blackhole blackhole) {
        byte[] bytes = ReplyMix.bytes();
        mix = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        reader = new RespReader();
        sink = new BlackholeSink(blackhole);
        hasp = new EmbeddedChannel(new RespValueDecoder(), new Consumer(blackhole));
        netty = new EmbeddedChannel(new RedisDecoder(), new RedisBulkStringAggregator(), new RedisArrayAggregator(1 << 20, 1024),
                new Consumer(blackhole));
    }

    /** Releases the input and closes the channels. */
    @TearDown(Level.Trial)
    public void tearDown() {
        hasp.finishAndReleaseAll();
        netty.finishAndReleaseAll();
        mix.release();
    }

    /** hasp's reader with a sink: no reply objects. */
    @Benchmark
    @OperationsPerInvocation(ReplyMix.REPLIES)
    public void haspSink() {
        ByteBuf in = mix;
        in.readerIndex(0);
        while (reader.read(in, sink)) {
            if (!in.isReadable()) {
                break;
            }
        }
    }

    /** hasp's ByteToMessageDecoder emitting RespValue trees. */
    @Benchmark
    @OperationsPerInvocation(ReplyMix.REPLIES)
    public void haspValueDecoder() {
        hasp.writeInbound(mix.retainedDuplicate().readerIndex(0));
    }

    /** Netty codec-redis: RedisDecoder with the bulk string and array aggregators. */
    @Benchmark
    @OperationsPerInvocation(ReplyMix.REPLIES)
    public void nettyCodecRedis() {
        netty.writeInbound(mix.retainedDuplicate().readerIndex(0));
    }

    /** The end of a benchmark pipeline: consumes and releases every decoded message. */
    private static final class Consumer extends ChannelInboundHandlerAdapter {
        private final Blackhole blackhole;

        Consumer(Blackhole blackhole) {
            this.blackhole = blackhole;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            blackhole.consume(msg);
            ReferenceCountUtil.release(msg);
        }
    }
}
