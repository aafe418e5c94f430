package io.hasp.bench.lock;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * Uncontended {@code lock()} + {@code unlock()} pairs: each thread its own lock name, so every
 * acquisition succeeds at once and the score (pairs/s) is the cost of the two round trips and the
 * client around them. Two variants per library: the watchdog lease ({@code lock()}) and a fixed lease
 * ({@code lock(30, SECONDS)}). The runner measures it at 1, 8 and 32 threads ({@code -t}). Run settings:
 * {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'UncontendedLockBenchmark' -t 8 -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}).
 */
@Threads(8)
public class UncontendedLockBenchmark extends LockBenchmark {

    /** The fixed lease of the {@code *Lease} variants, in seconds. */
    public static final long LEASE_SECONDS = 30;

    /**
     * hasp, watchdog lease.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void haspWatchdog(LibraryLock.PerThread own) {
        own.hasp.lock();
        own.hasp.unlock();
    }

    /**
     * Redisson, watchdog lease.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void redissonWatchdog(LibraryLock.PerThread own) {
        own.redisson.lock();
        own.redisson.unlock();
    }

    /**
     * hasp, fixed lease.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void haspLease(LibraryLock.PerThread own) {
        own.hasp.lock(LEASE_SECONDS, TimeUnit.SECONDS);
        own.hasp.unlock();
    }

    /**
     * Redisson, fixed lease.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void redissonLease(LibraryLock.PerThread own) {
        own.redisson.lock(LEASE_SECONDS, TimeUnit.SECONDS);
        own.redisson.unlock();
    }
}
