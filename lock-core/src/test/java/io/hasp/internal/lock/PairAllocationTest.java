package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code lock()} + {@code unlock()} pair, blocking or async, against a real server allocates at most 1 KB in
 * the whole JVM (the caller, the event loops and the timer together): measured with the JVM's
 * per-thread allocation counters over many pairs after a warm-up (a byte count, not a timing).
 * Netty's leak detector, which this build runs at its most thorough level and which records a
 * stack trace per buffer, is switched off while measuring, as it is by default in production
 * (where it samples).
 */
@ExtendWith(RedisServerExtension.class)
class PairAllocationTest {

    private static final int WARM_UP = 20_000;
    private static final int PAIRS = 20_000;
    private static final long MAX_BYTES_PER_PAIR = 1_024;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final RedisServer server;

    PairAllocationTest(RedisServer server) {
        this.server = server;
    }

    @Test
    void aLockUnlockPairAllocatesAtMostOneKilobyte() {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (HaspClient client = HaspClient.create(server.uri())) {
            HaspLock lock = client.getLock("allocation");
            pairs(lock, WARM_UP);
            long before = allocatedByAllThreads();
            pairs(lock, PAIRS);
            long perPair = (allocatedByAllThreads() - before) / PAIRS;
            assertTrue(perPair <= MAX_BYTES_PER_PAIR, perPair + " bytes per lock+unlock pair");
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    @Test
    void anAsyncLockUnlockPairAllocatesAtMostOneKilobyte() throws Exception {
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try (HaspClient client = HaspClient.create(server.uri())) {
            HaspLock lock = client.getLock("allocation-async");
            LockOwner owner = lock.owner(1);
            asyncPairs(lock, owner, WARM_UP);
            long before = allocatedByAllThreads();
            asyncPairs(lock, owner, PAIRS);
            long perPair = (allocatedByAllThreads() - before) / PAIRS;
            assertTrue(perPair <= MAX_BYTES_PER_PAIR, perPair + " bytes per lockAsync+unlockAsync pair (the wait excluded)");
        } finally {
            ResourceLeakDetector.setLevel(level);
        }
    }

    private static void asyncPairs(HaspLock lock, LockOwner owner, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            awaitWithoutAllocating(lock.lockAsync(owner)).get();
            awaitWithoutAllocating(lock.unlockAsync(owner)).get();
        }
    }

    /** Waits for {@code future} by polling, so that the wait allocates nothing of its own (get() would). */
    private static <T> CompletableFuture<T> awaitWithoutAllocating(CompletableFuture<T> future) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!future.isDone()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no reply within 30 s");
            }
            LockSupport.parkNanos(20_000);
        }
        return future;
    }

    private static void pairs(HaspLock lock, int count) {
        for (int i = 0; i < count; i++) {
            lock.lock();
            lock.unlock();
        }
    }

    private static long allocatedByAllThreads() {
        long[] bytes = THREADS.getThreadAllocatedBytes(THREADS.getAllThreadIds());
        return Arrays.stream(bytes).filter(b -> b > 0).sum();
    }
}
