package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertTrue;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Checking a command's arguments is on every command's path, so it must not allocate when the
 * arguments are fine: measured with the JVM's per-thread allocation counter over many calls (a
 * byte count, not a timing).
 */
class ArgsAllocationTest {

    private static final int ROUNDS = 100_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void validArgumentsAreCheckedWithoutAllocating() {
        Object[] args = {"orders:42", 30_000L, "c0ffee:1".getBytes(StandardCharsets.UTF_8), 7};
        for (int i = 0; i < ROUNDS; i++) {
            Args.validate(args);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            Args.validate(args);
        }
        long perCall = (THREADS.getCurrentThreadAllocatedBytes() - before) / ROUNDS;
        assertTrue(perCall == 0, perCall + " bytes per call");
    }
}
