package io.hasp.bench;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

/**
 * A JMH profiler that turns {@link WaitHistogram} into secondary results of the contended benchmarks:
 * {@code wait.p50} and {@code wait.p99} (microseconds, over all measurement iterations together) and
 * {@code handoff.share} (percent of acquisitions that went to a different thread than the previous one) and
 * {@code overtake.share} (percent of acquisitions that passed over a caller waiting since earlier; see
 * {@link WaitHistogram#granted}).
 * Benchmarks that record nothing get no extra results.
 *
 * <p>Use: {@code java -jar lock-bench/target/benchmarks.jar ContendedLockBenchmark -prof io.hasp.bench.AcquireWaitProfiler}
 */
public final class AcquireWaitProfiler implements InternalProfiler {

    private int measured;

    /** Creates the profiler (JMH calls this in the forked JVM). */
    public AcquireWaitProfiler() {
    }

    @Override
    public String getDescription() {
        return "acquire-wait percentiles and hand-off share recorded by hasp's contended benchmarks";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() == IterationType.WARMUP || measured == 0) {
            WaitHistogram.reset();
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
            IterationParams iterationParams, IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT) {
            return List.of();
        }
        measured++;
        long count = WaitHistogram.count();
        if (measured < iterationParams.getCount() || count == 0) {
            return List.of();
        }
        double share = 100.0 * WaitHistogram.handoffs() / count;
        return List.of(
                new ScalarResult("wait.p50", WaitHistogram.quantileNanos(0.50) / 1e3, "us", AggregationPolicy.AVG),
                new ScalarResult("wait.p99", WaitHistogram.quantileNanos(0.99) / 1e3, "us", AggregationPolicy.AVG),
                new ScalarResult("handoff.share", share, "%", AggregationPolicy.AVG),
                new ScalarResult("overtake.share", 100.0 * WaitHistogram.overtakes() / count, "%", AggregationPolicy.AVG));
    }
}
