package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
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
 * Uncontended {@code lock()} + {@code unlock()} pairs: each thread its own lock name, so every
 * acquisition succeeds at once and the score (pairs/s) is the cost of the two round trips and the
 * client around them. Two variants per library: the watchdog lease ({@code lock()}) and a fixed lease
 * ({@code lock(30, SECONDS)}). The runner measures it at 1, 8 and 32 threads ({@code -t}).
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'UncontendedLockBenchmark' -t 8 -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Threads(8)
public class UncontendedLockBenchmark {

    /** The fixed lease of the {@code *Lease} variants, in seconds. */
    public static final long LEASE_SECONDS = 30;

    /** Per thread: its own lock name, one lock object per library. */
    @State(Scope.Thread)
    public static class Locks {
        HaspLock hasp;
        RLock redisson;

        /**
         * Picks this thread's lock name.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = env.key("uncontended");
            if (library.hasp()) {
                hasp = env.hasp().getLock(name);
            } else {
                redisson = env.redisson().getLock(name);
            }
        }
    }

    /**
     * hasp, watchdog lease.
     *
     * @param locks this thread's locks
     */
    @Benchmark
    public void haspWatchdog(Locks locks) {
        locks.hasp.lock();
        locks.hasp.unlock();
    }

    /**
     * hasp, fixed lease.
     *
     * @param locks this thread's locks
     */
    @Benchmark
    public void haspLease(Locks locks) {
        locks.hasp.lock(LEASE_SECONDS, TimeUnit.SECONDS);
        locks.hasp.unlock();
    }

    /**
     * Redisson, watchdog lease.
     *
     * @param locks this thread's locks
     */
    @Benchmark
    public void redissonWatchdog(Locks locks) {
        locks.redisson.lock();
        locks.redisson.unlock();
    }

    /**
     * Redisson, fixed lease.
     *
     * @param locks this thread's locks
     */
    @Benchmark
    public void redissonLease(Locks locks) {
        locks.redisson.lock(LEASE_SECONDS, TimeUnit.SECONDS);
        locks.redisson.unlock();
    }
}
