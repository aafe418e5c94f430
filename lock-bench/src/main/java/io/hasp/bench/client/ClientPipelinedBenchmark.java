package io.hasp.bench.client;

import io.hasp.Replies;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * GET and EVALSHA issued asynchronously, 64 in flight per invocation (one thread sends 64 then
 * waits for all), hasp beside Lettuce on the same private redis-server. Scores are commands per
 * second; {@code gc.alloc.rate.norm} is divided by 64, i.e. bytes per command.
 *
 * <p>Run: {@code ./mvnw -B -q package -pl lock-bench -am -DskipTests && java -jar
 * lock-bench/target/benchmarks.jar 'io.hasp.bench.client' -f 1 -wi 2 -i 3 -w 3s -r 5s -prof gc}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
public class ClientPipelinedBenchmark {

    private static final int WINDOW = 64;

    /**
     * @param clients the shared clients
     * @return the last value
     */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public Object haspGet(Clients clients) {
        CompletableFuture<?>[] window = new CompletableFuture<?>[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            window[i] = clients.hasp.commands().get(Clients.KEY);
        }
        return CompletableFuture.allOf(window).thenApply(v -> window[WINDOW - 1].join()).join();
    }

    /**
     * @param clients the shared clients
     * @return the last value
     */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public Object lettuceGet(Clients clients) {
        RedisFuture<?>[] window = new RedisFuture<?>[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            window[i] = clients.lettuce.async().get(Clients.KEY);
        }
        return waitAll(window);
    }

    /**
     * @param clients the shared clients
     * @return the last result
     */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public Object haspEvalsha(Clients clients) {
        CompletableFuture<?>[] window = new CompletableFuture<?>[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            window[i] = clients.hasp.commands().evalsha(Clients.PTTL_SCRIPT, Replies.NULL_OR_LONG, Clients.KEYS);
        }
        return CompletableFuture.allOf(window).thenApply(v -> window[WINDOW - 1].join()).join();
    }

    /**
     * @param clients the shared clients
     * @return the last result
     */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public Object lettuceEvalsha(Clients clients) {
        RedisFuture<?>[] window = new RedisFuture<?>[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            window[i] = clients.lettuce.async().evalsha(Clients.PTTL_SCRIPT.sha1(), ScriptOutputType.INTEGER, Clients.KEY);
        }
        return waitAll(window);
    }

    private static Object waitAll(RedisFuture<?>[] window) {
        Object last = null;
        for (RedisFuture<?> future : window) {
            last = future.toCompletableFuture().join();
        }
        return last;
    }
}
