package io.hasp.bench.client;

import io.hasp.Replies;
import io.lettuce.core.ScriptOutputType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * GET and EVALSHA, each caller waiting for its reply, 8 caller threads, hasp beside Lettuce on
 * the same private redis-server in the same run. {@code gc.alloc.rate.norm} (with
 * {@code -prof gc}) is the bytes allocated per command in the whole JVM, I/O threads included.
 *
 * <p>Run: {@code ./mvnw -B -q package -pl lock-bench -am -DskipTests && java -jar
 * lock-bench/target/benchmarks.jar 'io.hasp.bench.client' -f 1 -wi 2 -i 3 -w 3s -r 5s -prof gc}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(8)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
public class ClientSyncBenchmark {

    /**
     * @param clients the shared clients
     * @return the value
     */
    @Benchmark
    public String haspGet(Clients clients) {
        return clients.hasp.commands().get(Clients.KEY).join();
    }

    /**
     * @param clients the shared clients
     * @return the value
     */
    @Benchmark
    public String lettuceGet(Clients clients) {
        return clients.lettuce.sync().get(Clients.KEY);
    }

    /**
     * @param clients the shared clients
     * @return the script's result
     */
    @Benchmark
    public Long haspEvalsha(Clients clients) {
        return clients.hasp.commands().evalsha(Clients.PTTL_SCRIPT, Replies.NULL_OR_LONG, Clients.KEYS).join();
    }

    /**
     * @param clients the shared clients
     * @return the script's result
     */
    @Benchmark
    public Long lettuceEvalsha(Clients clients) {
        return clients.lettuce.sync().evalsha(Clients.PTTL_SCRIPT.sha1(), ScriptOutputType.INTEGER, Clients.KEY);
    }
}
