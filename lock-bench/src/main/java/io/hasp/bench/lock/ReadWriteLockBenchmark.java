package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * Read/write lock pairs, hasp's {@code HaspReadWriteLock} against Redisson's {@code RReadWriteLock}, 8
 * threads, watchdog lease: read-lock + unlock pairs with all threads reading ONE name (readers share the
 * lock, so this measures shared holds, each with its own timeout key), and write-lock + unlock pairs with
 * each thread on its own name (uncontended exclusive holds). Score: pairs/s.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'ReadWriteLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}). Run settings: {@link LockBenchmark}.
 */
@Threads(8)
public class ReadWriteLockBenchmark extends LockBenchmark {

    /** The read lock every thread shares. */
    @State(Scope.Benchmark)
    public static class SharedRead {
        Lock read;

        /**
         * Creates the shared read lock of the measured library.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            read = readWriteLock(env, library, "rw-read").readLock();
        }
    }

    /** Each thread's own write lock. */
    @State(Scope.Thread)
    public static class OwnWrite {
        Lock write;

        /**
         * Creates this thread's write lock of the measured library.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            write = readWriteLock(env, library, "rw-write").writeLock();
        }
    }

    /**
     * hasp, read lock shared by all threads.
     *
     * @param shared the read lock
     */
    @Benchmark
    public void haspRead(SharedRead shared) {
        shared.read.lock();
        shared.read.unlock();
    }

    /**
     * hasp, each thread's own write lock.
     *
     * @param own this thread's write lock
     */
    @Benchmark
    public void haspWrite(OwnWrite own) {
        own.write.lock();
        own.write.unlock();
    }

    /**
     * Redisson, read lock shared by all threads.
     *
     * @param shared the read lock
     */
    @Benchmark
    public void redissonRead(SharedRead shared) {
        shared.read.lock();
        shared.read.unlock();
    }

    /**
     * Redisson, each thread's own write lock.
     *
     * @param own this thread's write lock
     */
    @Benchmark
    public void redissonWrite(OwnWrite own) {
        own.write.lock();
        own.write.unlock();
    }

    /**
     * Picks a new lock name and creates the measured library's read/write lock for it (no Redis command).
     *
     * @param env the shared server and clients
     * @param library the library measured
     * @param role what the name is for
     * @return hasp's {@code HaspReadWriteLock} or Redisson's {@code RReadWriteLock}
     */
    static ReadWriteLock readWriteLock(BenchEnvironment env, Library library, String role) {
        String name = env.key(role);
        return library.hasp() ? HaspReadWriteLocks.get(env.hasp(), name) : env.redisson().getReadWriteLock(name);
    }
}
