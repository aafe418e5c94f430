package io.hasp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WaitHistogramTest {

    @AfterEach
    void reset() {
        WaitHistogram.reset();
    }

    @Test
    void quantilesAreWithinTheBucketPrecision() {
        for (long v = 1; v <= 100_000; v++) {
            WaitHistogram.record(v * 1_000, v % 2);
        }
        assertWithin(50_000_000, WaitHistogram.quantileNanos(0.50));
        assertWithin(99_000_000, WaitHistogram.quantileNanos(0.99));
        assertEquals(100_000, WaitHistogram.count());
    }

    @Test
    void smallValuesAreExact() {
        WaitHistogram.record(3, 1);
        WaitHistogram.record(7, 1);
        assertEquals(3, WaitHistogram.quantileNanos(0.5));
        assertEquals(7, WaitHistogram.quantileNanos(1.0));
    }

    @Test
    void countsHandOffsBetweenHolders() {
        WaitHistogram.record(10, 1);
        WaitHistogram.record(10, 1);
        WaitHistogram.record(10, 2);
        WaitHistogram.record(10, 1);
        assertEquals(3, WaitHistogram.handoffs());
    }

    @Test
    void emptyHistogramReportsZero() {
        assertEquals(0, WaitHistogram.quantileNanos(0.99));
    }

    @Test
    void everyBucketBoundContainsItsValues() {
        for (long v = 0; v < 10_000_000; v = v * 3 / 2 + 1) {
            int index = WaitHistogram.index(v);
            assertTrue(WaitHistogram.upperBound(index) >= v, "bucket of " + v);
            assertTrue(index == 0 || WaitHistogram.upperBound(index - 1) < v, "previous bucket of " + v);
        }
    }

    private static void assertWithin(long expected, long actual) {
        assertTrue(Math.abs(actual - expected) <= expected * 0.035, "expected ~" + expected + ", got " + actual);
    }
}
