package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The one backoff policy: reconnects (with the configured jitter) and command retries. */
class BackoffTest {

    private static Backoff watchdog(long minMillis, long maxMillis, double jitter) {
        return new Backoff(Duration.ofMillis(minMillis), Duration.ofMillis(maxMillis), jitter);
    }

    @Test
    void delaysDoubleFromTheMinimumUpToTheMaximumWithoutJitter() {
        Backoff backoff = watchdog(10, 1000, 0);
        long[] expected = {10, 20, 40, 80, 160, 320, 640, 1000, 1000};
        for (int n = 0; n < expected.length; n++) {
            assertEquals(expected[n], TimeUnit.NANOSECONDS.toMillis(backoff.delayNanos(n)), "attempt " + n);
        }
        assertEquals(1000, TimeUnit.NANOSECONDS.toMillis(backoff.delayNanos(Integer.MAX_VALUE)));
    }

    @Test
    void jitterSpreadsEachDelayWithinItsBoundsAndNeverPastTheMaximum() {
        Backoff backoff = watchdog(100, 400, 0.5);
        long smallest = Long.MAX_VALUE;
        long largest = 0;
        for (int i = 0; i < 10_000; i++) {
            long millis = TimeUnit.NANOSECONDS.toMillis(backoff.delayNanos(1));   // base 200
            smallest = Math.min(smallest, millis);
            largest = Math.max(largest, millis);
        }
        assertTrue(smallest >= 100 && smallest < 120, "smallest " + smallest);
        assertTrue(largest <= 300 && largest > 280, "largest " + largest);
        for (int i = 0; i < 1000; i++) {
            assertTrue(backoff.delayNanos(5) <= TimeUnit.MILLISECONDS.toNanos(400));
        }
    }

    @Test
    void aZeroMinimumStillBacksOff() {
        Backoff backoff = watchdog(0, 50, 0);
        assertEquals(0, backoff.delayNanos(0));
        assertTrue(backoff.delayNanos(3) > 0);
    }

    @Test
    void commandRetriesPauseFiveMillisecondsDoublingToTwoHundred() {
        long[] expected = {5, 10, 20, 40, 80, 160, 200, 200};
        for (int n = 0; n < expected.length; n++) {
            assertEquals(TimeUnit.MILLISECONDS.toNanos(expected[n]), Backoff.COMMAND_RETRY.delayNanos(n), "failure " + n);
        }
    }

    @Test
    void badBoundsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> watchdog(100, 50, 0));
        assertThrows(IllegalArgumentException.class, () -> watchdog(-1, 50, 0));
        assertThrows(IllegalArgumentException.class, () -> watchdog(1, 50, 1.5));
        assertThrows(IllegalArgumentException.class, () -> watchdog(1, 50, Double.NaN));
    }
}
