package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.FencedLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RFencedLock;

/**
 * Uncontended fenced lock: {@code lockAndGetToken()} (watchdog lease) + {@code unlock()} pairs, each
 * thread its own name, so every acquisition succeeds at once and takes the next token. hasp's
 * {@code FencedLock} against Redisson's {@code RFencedLock} (one layout, one token counter per name).
 * Score: pairs/s.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'FencedLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}). Run settings: {@link LockBenchmark}.
 */
@Threads(8)
public class FencedLockBenchmark extends LockBenchmark {

    /** This thread's fenced lock, of the measured library. */
    @State(Scope.Thread)
    public static class OwnFencedLock {

        FencedLock hasp;
        RFencedLock redisson;

        /**
         * Picks this thread's lock name and creates the measured library's lock object.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = env.key("fenced");
            if (library.hasp()) {
                hasp = env.hasp().getFencedLock(name);
            } else {
                redisson = env.redisson().getFencedLock(name);
            }
        }
    }

    /**
     * hasp.
     *
     * @param own this thread's lock
     * @return the token
     */
    @Benchmark
    public long hasp(OwnFencedLock own) {
        long token = own.hasp.lockAndGetToken();
        own.hasp.unlock();
        return token;
    }

    /**
     * Redisson.
     *
     * @param own this thread's lock
     * @return the token
     */
    @Benchmark
    public long redisson(OwnFencedLock own) {
        long token = own.redisson.lockAndGetToken();
        own.redisson.unlock();
        return token;
    }
}
