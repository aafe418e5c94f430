package io.hasp.bench.lock;

import io.hasp.bench.Library;
import io.hasp.bench.ReplicaEnvironment;
import io.hasp.lock.HaspLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RLock;

/**
 * What a grant that survives a failover costs: uncontended {@code lock()} + {@code unlock()} pairs
 * (watchdog lease), each thread its own name, on a master with one replica. hasp without
 * acknowledgements, hasp with {@link ReplicaEnvironment#ACKS} (every script followed by {@code WAIT 1
 * 100}), and Redisson in master/replica mode with its defaults (it follows each lock script with
 * {@code WAIT} too). Run settings: {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar ReplicaLockBenchmark -t 8 -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or its rows with {@code lock-bench/bench.sh --only Replica --no-fleet}).
 */
@Threads(8)
public class ReplicaLockBenchmark extends LockBenchmark {

    /** One thread's lock, as the measured library's object. */
    @State(Scope.Thread)
    public static class Own {
        HaspLock hasp;
        HaspLock haspAcks;
        RLock redisson;

        /**
         * Creates this thread's lock object for the measured library (no Redis command).
         *
         * @param env the master, its replica and the clients
         * @param library the library measured
         * @param params JMH's parameters, naming the method measured
         */
        @Setup(Level.Trial)
        @SuppressWarnings("deprecation")  // Thread.threadId() needs Java 19
        public void setUp(ReplicaEnvironment env, Library library, org.openjdk.jmh.infra.BenchmarkParams params) {
            String name = env.key("replica", Thread.currentThread().getId());
            if (library.redisson()) {
                redisson = env.redisson().getLock(name);
            } else if (params.getBenchmark().endsWith(".haspAcks")) {
                haspAcks = env.haspAcks().getLock(name);
            } else {
                hasp = env.hasp().getLock(name);
            }
        }
    }

    /**
     * hasp, no acknowledgements: the master's answer is the grant.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void haspNoAcks(Own own) {
        own.hasp.lock();
        own.hasp.unlock();
    }

    /**
     * hasp with one replica's acknowledgement of every script.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void haspAcks(Own own) {
        own.haspAcks.lock();
        own.haspAcks.unlock();
    }

    /**
     * Redisson in master/replica mode, its defaults ({@code WAIT} after each lock script).
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void redissonMasterReplica(Own own) {
        own.redisson.lock();
        own.redisson.unlock();
    }
}
