package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
import io.hasp.lock.MultiLock;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RLock;

/**
 * Uncontended multi-lock over {@value #NAMES} names: {@code lock()} (watchdog lease on each member)
 * + {@code unlock()} pairs, each thread its own names, so every member is free. hasp's
 * {@code MultiLock} against Redisson's {@code getMultiLock}. Score: multi-lock pairs/s (each pair is
 * {@value #NAMES} acquisitions and {@value #NAMES} releases).
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'MultiLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}). Run settings: {@link LockBenchmark}.
 */
@Threads(8)
public class MultiLockBenchmark extends LockBenchmark {

    /** Locks per multi-lock. */
    public static final int NAMES = 3;

    /** This thread's multi-lock, of the measured library. */
    @State(Scope.Thread)
    public static class OwnMultiLock {

        MultiLock hasp;
        RLock redisson;

        /**
         * Picks this thread's lock names and creates the measured library's multi-lock.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < NAMES; i++) {
                names.add(env.key("multi"));
            }
            if (library.hasp()) {
                List<HaspLock> locks = new ArrayList<>();
                for (String name : names) {
                    locks.add(env.hasp().getLock(name));
                }
                hasp = MultiLock.of(locks);
            } else {
                RLock[] locks = new RLock[NAMES];
                for (int i = 0; i < NAMES; i++) {
                    locks[i] = env.redisson().getLock(names.get(i));
                }
                redisson = env.redisson().getMultiLock(locks);
            }
        }
    }

    /**
     * hasp.
     *
     * @param own this thread's multi-lock
     */
    @Benchmark
    public void hasp(OwnMultiLock own) {
        own.hasp.lock();
        own.hasp.unlock();
    }

    /**
     * Redisson.
     *
     * @param own this thread's multi-lock
     */
    @Benchmark
    public void redisson(OwnMultiLock own) {
        own.redisson.lock();
        own.redisson.unlock();
    }
}
