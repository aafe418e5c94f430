package io.hasp.bench.lock;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings every lock benchmark shares, declared once so the lock rows of the results table are
 * measured alike: throughput in operations per second, one fork, 3 warm-up iterations of 2 s, then 5
 * measured iterations of 3 s. JMH reads these class annotations from the superclass; each subclass states
 * its own thread count ({@code @Threads}) beside its {@code @Benchmark} methods. The runner
 * ({@code lock-bench/bench.sh}) overrides forks and iterations with its profile; these apply when a class
 * is run straight from {@code benchmarks.jar}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'io.hasp.bench.lock'} (every lock benchmark with
 * these settings).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public abstract class LockBenchmark {
}
