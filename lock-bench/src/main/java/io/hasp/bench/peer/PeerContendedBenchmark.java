package io.hasp.bench.peer;

import io.hasp.bench.WaitHistogram;
import io.hasp.bench.lock.LockBenchmark;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Threads;

/**
 * Contended hand-off on the locks users pick instead: 8 threads, each with its own session, take turns on
 * one name with lock and unlock, exactly as {@code ContendedLockBenchmark} does for hasp. Score:
 * acquisitions/s; each wait goes into {@link WaitHistogram} for the p50 and p99 rows. Run settings:
 * {@link LockBenchmark}.
 *
 * <p>Run: {@code lock-bench/bench.sh --only 'Contended' --no-fleet}
 */
@Threads(8)
public class PeerContendedBenchmark extends LockBenchmark {

    /**
     * PostgreSQL advisory lock.
     *
     * @param mine this thread's lock on the shared name
     * @throws Exception when the server fails
     */
    @Benchmark
    public void postgresAdvisory(PeerLocks.Contending mine) throws Exception {
        takeTurn(mine.lock);
    }

    /**
     * Row lock on PostgreSQL.
     *
     * @param mine this thread's lock on the shared name
     * @throws Exception when the server fails
     */
    @Benchmark
    public void postgresRow(PeerLocks.Contending mine) throws Exception {
        takeTurn(mine.lock);
    }

    /**
     * Row lock on MariaDB.
     *
     * @param mine this thread's lock on the shared name
     * @throws Exception when the server fails
     */
    @Benchmark
    public void mariadbRow(PeerLocks.Contending mine) throws Exception {
        takeTurn(mine.lock);
    }

    /**
     * ZooKeeper through Curator.
     *
     * @param mine this thread's lock on the shared name
     * @throws Exception when the server fails
     */
    @Benchmark
    public void zookeeper(PeerLocks.Contending mine) throws Exception {
        takeTurn(mine.lock);
    }

    private static void takeTurn(PeerLock lock) throws Exception {
        long start = System.nanoTime();
        lock.lock();
        WaitHistogram.record(System.nanoTime() - start, Thread.currentThread().getId());
        lock.unlock();
    }
}
