package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Turns Netty's leak reports into test failures: installs a leak detector factory that records
 * every reported leak, and after each test class collects garbage, lets the detector poll and
 * fails when a buffer was leaked. Works with the paranoid level the parent pom sets.
 */
final class LeakCheck implements AfterAllCallback {

    private static final List<String> LEAKS = new ArrayList<>();

    static {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
                    long maxActive) {
                return new ResourceLeakDetector<>(resource, samplingInterval) {
                    @Override
                    protected void reportTracedLeak(String resourceType, String records) {
                        record(resourceType + records);
                    }

                    @Override
                    protected void reportUntracedLeak(String resourceType) {
                        record(resourceType);
                    }
                };
            }
        });
    }

    private static void record(String leak) {
        synchronized (LEAKS) {
            LEAKS.add(leak);
        }
    }

    /** Collects garbage and lets the detector poll, then returns and clears the leaks seen so far. */
    static List<String> collectLeaks() {
        for (int round = 0; round < 3; round++) {
            System.gc();
            System.runFinalization();
            for (int i = 0; i < 100; i++) {
                ByteBuf probe = ByteBufAllocator.DEFAULT.buffer(8);
                probe.release();
            }
        }
        synchronized (LEAKS) {
            List<String> leaks = new ArrayList<>(LEAKS);
            LEAKS.clear();
            return leaks;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        assertEquals(List.of(), collectLeaks(), "leaked buffers in " + context.getDisplayName());
    }
}
