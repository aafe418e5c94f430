package io.hasp.bench.codec;

import io.hasp.resp.RespReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding one scalar reply through hasp's sink path, per reply type: the lock's hot replies
 * (nil = acquired, an integer = the holder's PTTL, {@code +OK}, a short bulk string). Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} is the bytes allocated per reply (goal: 0).
 *
 * <p>Run: {@code ./mvnw -B -q package -pl lock-bench -am -DskipTests && java -jar
 * lock-bench/target/benchmarks.jar 'io.hasp.bench.codec.RespScalarDecodeBenchmark' -f 1 -wi 2 -i 3 -w 2s -r 2s -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RespScalarDecodeBenchmark {

    /** The reply decoded on every operation. */
    @Param({"integer", "nil", "simple", "bulk"})
    public String reply;

    private ByteBuf in;
    private RespReader reader;
    private BlackholeSink sink;

    /**
     * Prepares the reply bytes and the reader.
     *
     * @param blackhole the JMH blackhole
     */
    @Setup(Level.Trial)
    public void setUp(Blackhole blackhole) {
        String wire;
        switch (reply) {
            case "integer": wire = ":29998\r\n"; break;
            case "nil": wire = "$-1\r\n"; break;
            case "simple": wire = "+OK\r\n"; break;
            case "bulk": wire = "$13\r\nlock:orders:1\r\n"; break;
            default: throw new IllegalArgumentException("reply: " + reply + " (expected: integer, nil, simple or bulk)");
        }
        byte[] bytes = wire.getBytes(StandardCharsets.US_ASCII);
        in = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        reader = new RespReader();
        sink = new BlackholeSink(blackhole);
    }

    /** Releases the input. */
    @TearDown(Level.Trial)
    public void tearDown() {
        in.release();
    }

    /**
     * Decodes the reply once.
     *
     * @return whether the reply was complete (always true)
     */
    @Benchmark
    public boolean decode() {
        in.readerIndex(0);
        return reader.read(in, sink);
    }
}
