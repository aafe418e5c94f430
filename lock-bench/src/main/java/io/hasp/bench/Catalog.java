package io.hasp.bench;

import io.hasp.bench.lock.ClusterLockBenchmark;
import io.hasp.bench.lock.ReplicaLockBenchmark;
import io.hasp.bench.lock.ContendedLockBenchmark;
import io.hasp.bench.lock.FairLockBenchmark;
import io.hasp.bench.lock.FencedLockBenchmark;
import io.hasp.bench.lock.MultiLockBenchmark;
import io.hasp.bench.lock.PipelinedLockBenchmark;
import io.hasp.bench.lock.TryLockFailBenchmark;
import io.hasp.bench.lock.UncontendedLockBenchmark;
import io.hasp.bench.script.EvalShaBenchmark;
import io.hasp.bench.script.GetBenchmark;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rows of the results table, in order, and the JMH executions behind them. */
public final class Catalog {

    /** Thread counts of the uncontended rows (and the chart's x axis). */
    public static final int[] UNCONTENDED_THREADS = {1, 8, 32};

    private Catalog() {
    }

    /**
     * Returns every row.
     *
     * @return the rows in table order
     */
    public static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String variant : new String[] {"Watchdog", "Lease"}) {
            for (int threads : UNCONTENDED_THREADS) {
                rows.add(new Row("Uncontended lock+unlock, " + (variant.equals("Watchdog") ? "watchdog" : "fixed lease")
                        + " (pairs/s)", threads, 2,
                        m(UncontendedLockBenchmark.class, "hasp" + variant, threads),
                        m(UncontendedLockBenchmark.class, "redisson" + variant, threads), null, variant.toLowerCase(),
                        true));
            }
        }
        rows.add(new Row("Async pipelined acquire+release, window " + PipelinedLockBenchmark.WINDOW + " (pairs/s)", 1, 2,
                m(PipelinedLockBenchmark.class, "hasp", 1), m(PipelinedLockBenchmark.class, "redisson", 1), null, null,
                true));
        rows.add(new Row("Contended, one name (acquisitions/s)", 8, 0,
                wait(ContendedLockBenchmark.class, "hasp"), wait(ContendedLockBenchmark.class, "redisson"), null, null));
        rows.add(new Row("Fair lock, contended, one name (acquisitions/s)", 8, 0,
                wait(FairLockBenchmark.class, "haspFair"), wait(FairLockBenchmark.class, "redissonFair"), null, null));
        rows.add(new Row("Reentrant lock, contended, in the fair lock's run (acquisitions/s)", 8, 0,
                wait(FairLockBenchmark.class, "haspReentrant"), null, null, null));
        rows.add(new Row("tryLock(0, lease) on a lock held elsewhere (failures/s)", 8, 1,
                m(TryLockFailBenchmark.class, "hasp", 8), m(TryLockFailBenchmark.class, "redisson", 8), null, null));
        rows.add(new Row("Raw EVALSHA of the acquire script, sync (calls/s)", 8, 1,
                m(EvalShaBenchmark.class, "haspSync", 8), null, m(EvalShaBenchmark.class, "lettuceSync", 8), null));
        rows.add(new Row("Raw EVALSHA of the acquire script, async window " + EvalShaBenchmark.WINDOW + " (calls/s)", 1, 1,
                m(EvalShaBenchmark.class, "haspAsync", 1), null, m(EvalShaBenchmark.class, "lettuceAsync", 1), null));
        rows.add(new Row("Raw GET, sync (calls/s)", 8, 0,
                m(GetBenchmark.class, "haspSync", 8), null, m(GetBenchmark.class, "lettuceSync", 8), null));
        rows.add(new Row("Raw GET, async window " + GetBenchmark.WINDOW + " (calls/s)", 1, 0,
                m(GetBenchmark.class, "haspAsync", 1), null, m(GetBenchmark.class, "lettuceAsync", 1), null));
        rows.addAll(ReadWriteRows.rows());
        rows.add(new Row("Fenced lock: uncontended lockAndGetToken+unlock, watchdog (pairs/s)", 8, 2,
                m(FencedLockBenchmark.class, "hasp", 8), m(FencedLockBenchmark.class, "redisson", 8), null, null));
        rows.add(new Row("Multi-lock of " + MultiLockBenchmark.NAMES + " names: uncontended lock+unlock, watchdog "
                + "(pairs/s)", 8, 2 * MultiLockBenchmark.NAMES,
                m(MultiLockBenchmark.class, "hasp", 8), m(MultiLockBenchmark.class, "redisson", 8), null, null));
        rows.add(new Row("Cluster of 3 masters: uncontended lock+unlock over " + ClusterLockBenchmark.NAMES
                + " names per thread, watchdog (pairs/s)", 8, 0,
                m(ClusterLockBenchmark.class, "haspWatchdog", 8), m(ClusterLockBenchmark.class, "redissonWatchdog", 8),
                null, null));
        rows.add(new Row("Master with one replica: uncontended lock+unlock, watchdog, hasp without acknowledgements, "
                + "Redisson in master/replica mode (pairs/s)", 8, 0,
                m(ReplicaLockBenchmark.class, "haspNoAcks", 8), m(ReplicaLockBenchmark.class, "redissonMasterReplica", 8),
                null, null));
        rows.add(new Row("Master with one replica: the same, hasp with replicaAcks(1, 100 ms) (pairs/s)", 8, 0,
                m(ReplicaLockBenchmark.class, "haspAcks", 8), m(ReplicaLockBenchmark.class, "redissonMasterReplica", 8),
                null, null));
        return rows;
    }

    /**
     * Returns the rows of hasp against the locks users pick instead (PostgreSQL, a database row, ZooKeeper).
     *
     * @return the rows in table order
     */
    public static List<PeerRow> peerRows() {
        return PeerRows.rows();
    }

    /**
     * Returns the distinct JMH executions behind the rows, skipping methods that do not exist (yet).
     *
     * @param rows the rows of the main table
     * @param peerRows the rows of the peers' table
     * @return executions by key, in row order (the main table's first)
     */
    public static Map<String, Measurement> measurements(List<Row> rows, List<PeerRow> peerRows) {
        List<Measurement> ordered = new ArrayList<>();
        for (Row row : rows) {
            ordered.addAll(Arrays.asList(row.hasp(), row.redisson(), row.lettuce()));
        }
        peerRows.forEach(row -> ordered.addAll(row.measurements()));
        Map<String, Measurement> all = new LinkedHashMap<>();
        for (Measurement m : ordered) {
            if (m != null && m.exists()) {
                all.putIfAbsent(m.key(), m);
            }
        }
        return all;
    }

    static Measurement m(Class<?> benchmark, String method, int threads) {
        return new Measurement(benchmark, method, threads, false);
    }

    private static Measurement wait(Class<?> benchmark, String method) {
        return new Measurement(benchmark, method, 8, true);
    }
}
