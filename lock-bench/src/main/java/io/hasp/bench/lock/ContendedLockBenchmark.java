package io.hasp.bench.lock;

import io.hasp.bench.WaitHistogram;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * Contended hand-off: 8 threads of one client take turns on one lock name with {@code lock()} (watchdog
 * lease) and {@code unlock()}. Score: acquisitions/s. Each acquisition's wait (from the call to the grant)
 * goes into {@link WaitHistogram}; with {@code -prof io.hasp.bench.AcquireWaitProfiler} the results carry
 * {@code wait.p50}, {@code wait.p99} (us) and {@code handoff.share} (% of acquisitions that changed hands).
 * Run settings: {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'ContendedLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s
 * -prof gc -prof io.hasp.bench.AcquireWaitProfiler} (or all rows at once with {@code lock-bench/bench.sh}).
 */
@Threads(8)
public class ContendedLockBenchmark extends LockBenchmark {

    /**
     * hasp.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void hasp(LibraryLock.Shared shared) {
        takeTurn(shared.hasp);
    }

    /**
     * Redisson.
     *
     * @param shared the contended lock
     */
    @Benchmark
    public void redisson(LibraryLock.Shared shared) {
        takeTurn(shared.redisson);
    }

    /** One turn, the same for both libraries: {@code lock()}, record the wait, {@code unlock()}. */
    private static void takeTurn(Lock lock) {
        long start = System.nanoTime();
        lock.lock();
        WaitHistogram.record(System.nanoTime() - start, Thread.currentThread().getId());
        lock.unlock();
    }
}
