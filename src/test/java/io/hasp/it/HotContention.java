package io.hasp.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.CommandStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Lock;

/**
 * Many processes on one hot lock, for the tests of its line of turns: each lock view stands for a process of its own
 * (a client with its own connections and subscription), one thread each, and the server's script count tells the
 * work per acquisition.
 */
public final class HotContention {

    private HotContention() {
    }

    /** The scripts ({@code EVALSHA} and {@code EVAL}) the node of {@code servers} serving {@code name} has run. */
    public static long scripts(TopologyServers servers, String name) {
        CommandStats stats = CommandStats.parse((String) servers.call(name, "INFO", "commandstats"));
        return stats.calls("evalsha") + stats.calls("eval");
    }

    /**
     * One thread per lock of {@code exclusive} takes it, increments a plain counter and unlocks, until {@code total}
     * acquisitions are done, while one thread per lock of {@code shared} (read locks of the same lock) takes it and
     * checks that the counter does not move under it; returns each exclusive lock's acquisitions. Fails on a lost
     * update, a write seen under a shared hold, a shared lock never had, or a run longer than two minutes.
     */
    public static long[] run(List<? extends Lock> exclusive, List<? extends Lock> shared, int total) throws Exception {
        AtomicInteger granted = new AtomicInteger();
        AtomicLongArray perLock = new AtomicLongArray(exclusive.size());
        AtomicLongArray reads = new AtomicLongArray(shared.size());
        long[] counter = {0};
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int i = 0; i < exclusive.size(); i++) {
            Lock lock = exclusive.get(i);
            int index = i;
            workers.add(thread("hot-" + i, () -> {
                while (granted.get() < total) {
                    lock.lock();
                    try {
                        long seen = counter[0];
                        Thread.onSpinWait();
                        counter[0] = seen + 1;
                        perLock.incrementAndGet(index);
                        granted.incrementAndGet();
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        for (int i = 0; i < shared.size(); i++) {
            Lock lock = shared.get(i);
            int index = i;
            workers.add(thread("hot-reader-" + i, () -> {
                while (granted.get() < total) {
                    lock.lock();
                    try {
                        long seen = counter[0];
                        Thread.onSpinWait();
                        assertEquals(seen, counter[0], "no write while a shared hold stands");
                        reads.incrementAndGet(index);
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        long[] counts = new long[exclusive.size()];
        long sum = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = perLock.get(i);
            sum += counts[i];
        }
        assertEquals(sum, counter[0], "no update lost under the lock");
        for (int i = 0; i < shared.size(); i++) {
            assertTrue(reads.get(i) > 0, "shared holder " + i + " of " + shared.size() + " got in");
        }
        return counts;
    }

    private static CompletableFuture<Void> thread(String name, Runnable work) {
        return CompletableFuture.runAsync(work, runnable -> new Thread(runnable, name).start());
    }
}
