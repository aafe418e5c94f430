package io.hasp.bench.codec;

import io.hasp.resp.CommandName;
import io.hasp.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding the lock's acquire command, {@code EVALSHA <sha> 1 <key> <leaseMillis> <owner>} (one
 * key, two arguments), with {@link RespWriter}: {@link #evalsha()} into a reused buffer (the
 * encoder alone) and {@link #evalshaPooled()} into an exactly pre-sized pooled buffer that is then
 * released, as the client does per command. With {@code -prof gc}, {@code gc.alloc.rate.norm} is
 * the bytes allocated per command.
 *
 * <p>Run: {@code ./mvnw -B -q package -pl lock-bench -am -DskipTests && java -jar
 * lock-bench/target/benchmarks.jar 'io.hasp.bench.codec.RespEncodeBenchmark' -f 1 -wi 2 -i 3 -w 2s -r 2s -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RespEncodeBenchmark {

    private static final CommandName EVALSHA = CommandName.of("EVALSHA");

    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private final String sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db";
    private final String key = "lock:orders:42";
    private final String owner = "5f0c0a5e-8f3c-4d43-a1f1-0b0a2d35a9e1:1";
    private final ByteBuf reused = Unpooled.directBuffer(256);
    private long leaseMillis = 30_000;

    /** Releases the reused buffer. */
    @TearDown
    public void tearDown() {
        reused.release();
    }

    /**
     * Encodes one EVALSHA into a reused buffer: the cost of the encoder alone.
     *
     * @return the encoded size
     */
    @Benchmark
    public int evalsha() {
        ByteBuf out = reused.clear();
        long lease = leaseMillis++;
        out.ensureWritable(size(lease));
        write(out, lease);
        return out.readableBytes();
    }

    /**
     * Encodes one EVALSHA into a fresh, exactly sized pooled buffer and releases it.
     *
     * @return the encoded size
     */
    @Benchmark
    public int evalshaPooled() {
        long lease = leaseMillis++;
        ByteBuf out = alloc.directBuffer(size(lease));
        try {
            write(out, lease);
            return out.readableBytes();
        } finally {
            out.release();
        }
    }

    private int size(long lease) {
        return EVALSHA.headerSize(5) + RespWriter.bulkSize(sha) + RespWriter.bulkSize(1L)
                + RespWriter.bulkSize(key) + RespWriter.bulkSize(lease) + RespWriter.bulkSize(owner);
    }

    private void write(ByteBuf out, long lease) {
        EVALSHA.writeHeader(out, 5);
        RespWriter.writeBulk(out, sha);
        RespWriter.writeBulk(out, 1L);
        RespWriter.writeBulk(out, key);
        RespWriter.writeBulk(out, lease);
        RespWriter.writeBulk(out, owner);
    }
}
