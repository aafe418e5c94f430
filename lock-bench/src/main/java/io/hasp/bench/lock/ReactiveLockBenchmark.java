package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
import io.hasp.reactor.HaspReactiveClient;
import io.hasp.reactor.ReactiveLock;
import java.util.concurrent.ThreadLocalRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RLockReactive;
import reactor.core.publisher.Mono;

/**
 * Lock and unlock of one lock from 8 concurrent owners through the reactive and coroutine APIs: hasp-reactor's
 * {@code withLock} (each call a subscription, so an owner of its own), hasp-kotlin's suspend {@code withLock}
 * (each call a coroutine), and Redisson's {@code RLockReactive} ({@code lock(id)} then {@code unlock(id)}, an id
 * per benchmark thread). Each of the 8 benchmark threads waits for its pipeline to finish before the next, so
 * 8 owners contend at any time. Score: lock+unlock pairs/s. Run settings: {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'ReactiveLockBenchmark' -f 1 -wi 2 -i 3 -w 2s -r 3s
 * -prof gc}.
 */
@Threads(8)
public class ReactiveLockBenchmark extends LockBenchmark {

    /** The lock the 8 owners share. */
    @State(Scope.Benchmark)
    public static class Locks {

        ReactiveLock haspReactive;
        HaspLock haspLock;
        RLockReactive redisson;

        /**
         * Makes the measured library's lock.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = env.key("reactive-lock");
            if (library.hasp()) {
                haspLock = env.hasp().getLock(name);
                haspReactive = HaspReactiveClient.of(env.hasp()).getLock(name);
            } else {
                redisson = env.redisson().reactive().getLock(name);
            }
        }
    }

    /** A benchmark thread's owner id for Redisson's reactive lock. */
    @State(Scope.Thread)
    public static class Owner {
        final long id = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    }

    /**
     * hasp-reactor: {@code withLock} of an empty work.
     *
     * @param locks the shared lock
     */
    @Benchmark
    public void haspReactor(Locks locks) {
        locks.haspReactive.withLock(Mono.empty()).block();
    }

    /**
     * hasp-kotlin: {@code lock.withLock { }} in a coroutine.
     *
     * @param locks the shared lock
     */
    @Benchmark
    public void haspCoroutine(Locks locks) {
        CoroutineCalls.withLock(locks.haspLock).join();
    }

    /**
     * Redisson's {@code RLockReactive}: {@code lock(id)} then {@code unlock(id)}.
     *
     * @param locks the shared lock
     * @param owner this thread's owner id
     */
    @Benchmark
    public void redissonReactive(Locks locks, Owner owner) {
        locks.redisson.lock(owner.id).then(locks.redisson.unlock(owner.id)).block();
    }
}
