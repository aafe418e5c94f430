package io.hasp.bench.lock;

import io.hasp.bench.ClusterEnvironment;
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
 * Uncontended {@code lock()} + {@code unlock()} pairs (watchdog lease) on a 3-master Redis Cluster:
 * each thread cycles through {@value #NAMES} names of its own, spread over the slots, so the pairs
 * reach every master and none waits. hasp against Redisson in cluster mode. Run settings:
 * {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar ClusterLockBenchmark -t 8 -f 1 -wi 2 -i 3 -w 1s -r 2s}
 * (or its rows with {@code lock-bench/bench.sh --only Cluster}).
 */
@Threads(8)
public class ClusterLockBenchmark extends LockBenchmark {

    /** Lock names per thread. */
    public static final int NAMES = 1024;

    /** One thread's names, as the measured library's lock objects, and where it is in the cycle. */
    @State(Scope.Thread)
    public static class Names {
        HaspLock[] hasp;
        RLock[] redisson;
        int next;

        /**
         * Creates this thread's lock objects (no Redis command).
         *
         * @param env the cluster and its clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(ClusterEnvironment env, Library library) {
            String role = "cluster:" + Thread.currentThread().getId();
            if (library.hasp()) {
                hasp = new HaspLock[NAMES];
                for (int i = 0; i < NAMES; i++) {
                    hasp[i] = env.hasp().getLock(env.key(role, i));
                }
            } else {
                redisson = new RLock[NAMES];
                for (int i = 0; i < NAMES; i++) {
                    redisson[i] = env.redisson().getLock(env.key(role, i));
                }
            }
        }

        int nextIndex() {
            int i = next;
            next = (i + 1) & (NAMES - 1);
            return i;
        }
    }

    /**
     * hasp, watchdog lease.
     *
     * @param names this thread's locks
     */
    @Benchmark
    public void haspWatchdog(Names names) {
        HaspLock lock = names.hasp[names.nextIndex()];
        lock.lock();
        lock.unlock();
    }

    /**
     * Redisson in cluster mode, watchdog lease.
     *
     * @param names this thread's locks
     */
    @Benchmark
    public void redissonWatchdog(Names names) {
        RLock lock = names.redisson[names.nextIndex()];
        lock.lock();
        lock.unlock();
    }
}
