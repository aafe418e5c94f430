package io.hasp.bench.sync;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.bench.lock.LockBenchmark;
import io.hasp.sync.HaspCountDownLatch;
import io.hasp.sync.HaspSemaphore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RSemaphore;

/**
 * hasp's synchronizers against Redisson's, 8 threads of one client, in Redisson's layout for both: a semaphore with
 * plenty of permits ({@code *Permits}: acquire one, release it, nobody waits), a semaphore of one permit all threads
 * contend for ({@code *OnePermit}: blocking {@code acquire()}, then {@code release()}), and a count-down latch per
 * thread ({@code *Latch}: set a count of one, count down, {@code await()} the open latch). Score: operations/s.
 * Run settings: {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'SynchronizerBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s
 * -prof gc}.
 */
@Threads(8)
public class SynchronizerBenchmark extends LockBenchmark {

    /** The semaphores all threads share: one with plenty of permits, one with a single permit. */
    @State(Scope.Benchmark)
    public static class Semaphores {

        HaspSemaphore haspPermits;
        HaspSemaphore haspOnePermit;
        RSemaphore redissonPermits;
        RSemaphore redissonOnePermit;

        /**
         * Sets the permits of the measured library's semaphores.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String permits = env.key("semaphore-permits");
            String onePermit = env.key("semaphore-one");
            if (library.hasp()) {
                haspPermits = env.hasp().getSemaphore(permits);
                haspOnePermit = env.hasp().getSemaphore(onePermit);
                haspPermits.trySetPermits(1_000);
                haspOnePermit.trySetPermits(1);
            } else {
                redissonPermits = env.redisson().getSemaphore(permits);
                redissonOnePermit = env.redisson().getSemaphore(onePermit);
                redissonPermits.trySetPermits(1_000);
                redissonOnePermit.trySetPermits(1);
            }
        }
    }

    /** Each thread's own latch. */
    @State(Scope.Thread)
    public static class Latches {

        HaspCountDownLatch hasp;
        RCountDownLatch redisson;

        /**
         * Makes this thread's latch of the measured library.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            String name = env.key("latch");
            if (library.hasp()) {
                hasp = env.hasp().getCountDownLatch(name);
            } else {
                redisson = env.redisson().getCountDownLatch(name);
            }
        }
    }

    /**
     * hasp, permits to spare.
     *
     * @param s the semaphores
     * @throws InterruptedException never: nobody interrupts the benchmark's threads
     */
    @Benchmark
    public void haspPermits(Semaphores s) throws InterruptedException {
        s.haspPermits.acquire();
        s.haspPermits.release();
    }

    /**
     * Redisson, permits to spare.
     *
     * @param s the semaphores
     * @throws InterruptedException never
     */
    @Benchmark
    public void redissonPermits(Semaphores s) throws InterruptedException {
        s.redissonPermits.acquire();
        s.redissonPermits.release();
    }

    /**
     * hasp, one permit for 8 threads.
     *
     * @param s the semaphores
     * @throws InterruptedException never
     */
    @Benchmark
    public void haspOnePermit(Semaphores s) throws InterruptedException {
        s.haspOnePermit.acquire();
        s.haspOnePermit.release();
    }

    /**
     * Redisson, one permit for 8 threads.
     *
     * @param s the semaphores
     * @throws InterruptedException never
     */
    @Benchmark
    public void redissonOnePermit(Semaphores s) throws InterruptedException {
        s.redissonOnePermit.acquire();
        s.redissonOnePermit.release();
    }

    /**
     * hasp: a count of one set, counted down, the open latch awaited.
     *
     * @param l this thread's latch
     * @throws InterruptedException never
     */
    @Benchmark
    public void haspLatch(Latches l) throws InterruptedException {
        l.hasp.trySetCount(1);
        l.hasp.countDown();
        l.hasp.await();
    }

    /**
     * Redisson: a count of one set, counted down, the open latch awaited.
     *
     * @param l this thread's latch
     * @throws InterruptedException never
     */
    @Benchmark
    public void redissonLatch(Latches l) throws InterruptedException {
        l.redisson.trySetCount(1);
        l.redisson.countDown();
        l.redisson.await();
    }
}
