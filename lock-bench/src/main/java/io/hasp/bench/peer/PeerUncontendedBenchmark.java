package io.hasp.bench.peer;

import io.hasp.bench.lock.LockBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * Uncontended lock + unlock pairs on the locks users pick instead of a Redis lock, each thread its own
 * name and session: the peers' side of the uncontended rows ({@code UncontendedLockBenchmark} is hasp's).
 * The runner measures it at 1 and 8 threads and starts the servers; run settings: {@link LockBenchmark}.
 *
 * <p>Run: {@code lock-bench/bench.sh --only 'Peer|UncontendedLockBenchmark.haspWatchdog' --no-fleet}
 */
@Threads(8)
public class PeerUncontendedBenchmark extends LockBenchmark {

    /**
     * PostgreSQL advisory lock.
     *
     * @param own this thread's lock
     * @throws Exception when the server fails
     */
    @Benchmark
    public void postgresAdvisory(PeerLocks.Own own) throws Exception {
        pair(own.lock);
    }

    /**
     * Row lock on PostgreSQL.
     *
     * @param own this thread's lock
     * @throws Exception when the server fails
     */
    @Benchmark
    public void postgresRow(PeerLocks.Own own) throws Exception {
        pair(own.lock);
    }

    /**
     * Row lock on MariaDB.
     *
     * @param own this thread's lock
     * @throws Exception when the server fails
     */
    @Benchmark
    public void mariadbRow(PeerLocks.Own own) throws Exception {
        pair(own.lock);
    }

    /**
     * ZooKeeper through Curator.
     *
     * @param own this thread's lock
     * @throws Exception when the server fails
     */
    @Benchmark
    public void zookeeper(PeerLocks.Own own) throws Exception {
        pair(own.lock);
    }

    private static void pair(PeerLock lock) throws Exception {
        lock.lock();
        lock.unlock();
    }
}
