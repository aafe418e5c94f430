package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RLock;

/**
 * What fairness costs: 8 threads of one client take turns on one lock name with {@code lock()} (watchdog lease)
 * and {@code unlock()}, as in {@link ContendedLockBenchmark}, on hasp's fair lock ({@code getFairLock}), on
 * Redisson's {@code getFairLock}, and on hasp's reentrant lock in the same run. Score: acquisitions/s; with
 * {@code -prof io.hasp.bench.AcquireWaitProfiler}, {@code wait.p50}/{@code wait.p99} (us) and
 * {@code overtake.share}, the percent of acquisitions that passed over a caller waiting since earlier (more than
 * 2 ms earlier: {@link io.hasp.bench.WaitHistogram#granted}).
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'FairLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s
 * -prof gc -prof io.hasp.bench.AcquireWaitProfiler} (or the rows with {@code lock-bench/bench.sh --only Fair}).
 * Run settings: {@link LockBenchmark}.
 */
@Threads(8)
public class FairLockBenchmark extends LockBenchmark {

    /** One lock name all threads contend for, as the measured lock of the measured library. */
    @State(Scope.Benchmark)
    public static class Shared {

        HaspLock haspFair;
        HaspLock haspReentrant;
        RLock redissonFair;

        /**
         * Picks the shared lock name and creates the measured library's lock objects (no Redis command).
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = env.key("fair");
            if (library.hasp()) {
                haspFair = env.hasp().getFairLock(name);
                haspReentrant = env.hasp().getLock(name);
            } else {
                redissonFair = env.redisson().getFairLock(name);
            }
        }
    }

    /**
     * hasp's fair lock.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void haspFair(Shared shared) {
        ContendedLockBenchmark.takeTurn(shared.haspFair);
    }

    /**
     * hasp's reentrant lock, in the same run.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void haspReentrant(Shared shared) {
        ContendedLockBenchmark.takeTurn(shared.haspReentrant);
    }

    /**
     * Redisson's fair lock.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void redissonFair(Shared shared) {
        ContendedLockBenchmark.takeTurn(shared.redissonFair);
    }
}
