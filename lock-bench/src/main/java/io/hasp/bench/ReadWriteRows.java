package io.hasp.bench;

import io.hasp.bench.lock.ReadWriteLockBenchmark;
import java.util.List;

/** The read/write lock rows (hasp's lock-rw against Redisson's RReadWriteLock). */
final class ReadWriteRows {

    private ReadWriteRows() {
    }

    static List<Row> rows() {
        return List.of(
                new Row("Read lock+unlock, all threads reading one name (pairs/s)", 8, 2,
                        Catalog.m(ReadWriteLockBenchmark.class, "haspRead", 8),
                        Catalog.m(ReadWriteLockBenchmark.class, "redissonRead", 8), null, null),
                new Row("Write lock+unlock, each thread its own name (pairs/s)", 8, 2,
                        Catalog.m(ReadWriteLockBenchmark.class, "haspWrite", 8),
                        Catalog.m(ReadWriteLockBenchmark.class, "redissonWrite", 8), null, null));
    }
}
