package io.hasp.lock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A blocking {@code lock()} + {@code unlock()} pair against a real server allocates at most 1 KB in
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
