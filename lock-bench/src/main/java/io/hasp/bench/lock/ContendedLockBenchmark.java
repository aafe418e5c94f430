package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
import io.hasp.bench.WaitHistogram;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.redisson.api.RLock;

/**
 * Contended hand-off: 8 threads of one client take turns on one lock name with {@code lock()} (watchdog
 * lease) and {@code unlock()}. Score: acquisitions/s. Each acquisition's wait (from the call to the grant)
 * goes into {@link WaitHistogram}; with {@code -prof io.hasp.bench.AcquireWaitProfiler} the results carry
 * {@code wait.p50}, {@code wait.p99} (us) and {@code handoff.share} (% of acquisitions that changed hands).
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'ContendedLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s
 * -prof gc -prof io.hasp.bench.AcquireWaitProfiler} (or all rows at once with {@code lock-bench/bench.sh}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Threads(8)
public class ContendedLockBenchmark {

    /** The one lock all threads contend for, per library. */
    @State(Scope.Benchmark)
    public static class SharedLock {
        HaspLock hasp;
        RLock redisson;

        /**
         * Picks the shared lock name.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = env.key("contended");
            if (library.hasp()) {
                hasp = env.hasp().getLock(name);
            } else {
                redisson = env.redisson().getLock(name);
            }
        }
    }

    /**
     * hasp.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void hasp(SharedLock shared) {
        long start = System.nanoTime();
        shared.hasp.lock();
        WaitHistogram.record(System.nanoTime() - start, Thread.currentThread().getId());
        shared.hasp.unlock();
    }

    /**
     * Redisson.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void redisson(SharedLock shared) {
        long start = System.nanoTime();
        shared.redisson.lock();
        WaitHistogram.record(System.nanoTime() - start, Thread.currentThread().getId());
        shared.redisson.unlock();
    }
}
