package io.hasp.bench.lock;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * {@code tryLock(0, lease)} on a lock held elsewhere: 8 threads ask for a lock that another owner holds
 * (written straight into Redis in the Redisson/hasp layout with a long expiry), so every call fails at
 * once. Score: failed attempts/s. This is what a fleet pays to learn "busy, skip it".
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'TryLockFailBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}). Run settings: {@link LockBenchmark}.
 */
@Threads(8)
public class TryLockFailBenchmark extends LockBenchmark {

    /** The lease asked for by the failing attempts, in seconds. */
    public static final long LEASE_SECONDS = 30;

    /** The owner field of the hold written in setup: no benchmark thread's. */
    static final String FOREIGN_OWNER = "holder-elsewhere:1";

    /** The lock, held by an owner no benchmark thread is. */
    @State(Scope.Benchmark)
    public static class HeldLock extends LibraryLock {

        /**
         * Creates the lock objects and writes the foreign hold, through the measured library's side: hasp's
         * client for hasp, Lettuce for Redisson.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = open(env, library, "held");
            long expiry = TimeUnit.HOURS.toMillis(1);
            if (library.hasp()) {
                RedisCommands commands = env.hasp().commands();
                commands.execute(Replies.VOID, "HSET", name, FOREIGN_OWNER, "1").join();
                commands.execute(Replies.VOID, "PEXPIRE", name, Long.toString(expiry)).join();
            } else {
                env.lettuce().sync().hset(name, FOREIGN_OWNER, "1");
                env.lettuce().sync().pexpire(name, expiry);
            }
        }
    }

    /**
     * hasp.
     *
     * @param held the held lock
     * @return false
     * @throws InterruptedException never in practice (no wait)
     */
    @Benchmark
    public boolean hasp(HeldLock held) throws InterruptedException {
        return check(held.hasp.tryLock(0, LEASE_SECONDS, TimeUnit.SECONDS));
    }

    /**
     * Redisson.
     *
     * @param held the held lock
     * @return false (asserted by the caller's reading of the score: a success would be a broken setup)
     * @throws InterruptedException never in practice (no wait)
     */
    @Benchmark
    public boolean redisson(HeldLock held) throws InterruptedException {
        return check(held.redisson.tryLock(0, LEASE_SECONDS, TimeUnit.SECONDS));
    }

    static boolean check(boolean acquired) {
        if (acquired) {
            throw new IllegalStateException("tryLock: acquired a lock held elsewhere (expected: false)");
        }
        return false;
    }
}
