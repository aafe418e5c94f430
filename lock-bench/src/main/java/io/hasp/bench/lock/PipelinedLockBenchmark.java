package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.bench.Window;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.api.RLock;

/**
 * Async pipelined acquire + release: one thread keeps {@value #WINDOW} pairs in flight through the
 * libraries' async APIs. Each slot of the window owns a lock name and a holder id, so the pairs never
 * contend; a pair is {@code lockAsync(lease, owner)} then, once granted, {@code unlockAsync(owner)}.
 * Score: pairs/s (two scripts each, so scripts/s is twice the score).
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'PipelinedLockBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}). Run settings: {@link LockBenchmark}.
 */
@Threads(1)
public class PipelinedLockBenchmark extends LockBenchmark {

    /** Pairs kept in flight per thread. */
    public static final int WINDOW = 64;

    /** The fixed lease of every acquisition, in milliseconds. */
    public static final long LEASE_MILLIS = 30_000;

    /** Per thread: the window and one lock per slot. */
    @State(Scope.Thread)
    public static class Slots {
        final Window window = new Window(WINDOW);
        final RLock[] redisson = new RLock[WINDOW];
        final HaspLock[] hasp = new HaspLock[WINDOW];
        final LockOwner[] haspOwners = new LockOwner[WINDOW];

        /**
         * Creates the slots' locks.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            for (int i = 0; i < WINDOW; i++) {
                String name = env.key("pipelined");
                if (library.hasp()) {
                    hasp[i] = env.hasp().getLock(name);
                    haspOwners[i] = hasp[i].owner(i + 1);
                } else {
                    redisson[i] = env.redisson().getLock(name);
                }
            }
        }

        /** Waits for the pairs still in flight. */
        @TearDown(Level.Iteration)
        public void drain() {
            window.drain();
        }
    }

    /**
     * hasp: {@code lockAsync(lease, unit, owner)} then {@code unlockAsync(owner)}.
     *
     * @param slots this thread's window
     */
    @Benchmark
    public void hasp(Slots slots) {
        int slot = slots.window.awaitSlot();
        HaspLock lock = slots.hasp[slot];
        LockOwner owner = slots.haspOwners[slot];
        slots.window.started(slot, lock.lockAsync(LEASE_MILLIS, TimeUnit.MILLISECONDS, owner)
                .thenCompose(granted -> lock.unlockAsync(owner)));
    }

    /**
     * Redisson: {@code lockAsync(lease, unit, threadId)} then {@code unlockAsync(threadId)}.
     *
     * @param slots this thread's window
     */
    @Benchmark
    public void redisson(Slots slots) {
        int slot = slots.window.awaitSlot();
        RLock lock = slots.redisson[slot];
        long holder = slot + 1;
        slots.window.started(slot, lock.lockAsync(LEASE_MILLIS, TimeUnit.MILLISECONDS, holder)
                .thenCompose(granted -> lock.unlockAsync(holder)));
    }
}
