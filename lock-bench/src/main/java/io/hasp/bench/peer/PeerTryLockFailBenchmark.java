package io.hasp.bench.peer;

import io.hasp.bench.lock.LockBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * A try-lock without waiting on a name another session holds, on the locks users pick instead: every call
 * fails at once, as in {@code TryLockFailBenchmark} for hasp. Score: failed attempts/s. Run settings:
 * {@link LockBenchmark}.
 *
 * <p>Run: {@code lock-bench/bench.sh --only 'TryLockFail' --no-fleet}
 */
@Threads(8)
public class PeerTryLockFailBenchmark extends LockBenchmark {

    /**
     * PostgreSQL {@code pg_try_advisory_lock}.
     *
     * @param mine this thread's lock on the held name
     * @return false
     * @throws Exception when the server fails
     */
    @Benchmark
    public boolean postgresAdvisory(PeerLocks.Trying mine) throws Exception {
        return fail(mine.lock);
    }

    /**
     * Row lock on PostgreSQL.
     *
     * @param mine this thread's lock on the held name
     * @return false
     * @throws Exception when the server fails
     */
    @Benchmark
    public boolean postgresRow(PeerLocks.Trying mine) throws Exception {
        return fail(mine.lock);
    }

    /**
     * Row lock on MariaDB.
     *
     * @param mine this thread's lock on the held name
     * @return false
     * @throws Exception when the server fails
     */
    @Benchmark
    public boolean mariadbRow(PeerLocks.Trying mine) throws Exception {
        return fail(mine.lock);
    }

    /**
     * ZooKeeper through Curator.
     *
     * @param mine this thread's lock on the held name
     * @return false
     * @throws Exception when the server fails
     */
    @Benchmark
    public boolean zookeeper(PeerLocks.Trying mine) throws Exception {
        return fail(mine.lock);
    }

    private static boolean fail(PeerLock lock) throws Exception {
        if (lock.tryLock()) {
            throw new IllegalStateException("tryLock: acquired a lock another session holds (expected: false)");
        }
        return false;
    }
}
