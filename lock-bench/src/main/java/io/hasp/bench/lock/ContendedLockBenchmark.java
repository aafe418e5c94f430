package io.hasp.bench.lock;

import io.hasp.bench.WaitHistogram;
import java.util.concurrent.locks.Lock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * Contended hand-off: 8 threads of one client take turns on one lock name with {@code lock()} (watchdog
 * lease) and {@code unlock()}. Score: acquisitions/s. Each acquisition's wait (from the call to the grant)
 * goes into {@link WaitHistogram}; with {@code -prof io.hasp.bench.AcquireWaitProfiler} the results carry
 * {@code wait.p50}, {@code wait.p99} (us), {@code handoff.share} (% of acquisitions that changed hands) and
 * {@code overtake.share} (% that passed over an earlier waiter).
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

    /** One turn, the same for every lock: {@code lock()}, record the wait (and any overtake), {@code unlock()}. */
    static void takeTurn(Lock lock) {
        long since = WaitHistogram.arrive();
        lock.lock();
        WaitHistogram.granted(since);
        lock.unlock();
    }
}
