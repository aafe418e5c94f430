package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Proves that {@link LeakCheck} is live: a deliberately leaked buffer is reported. */
@ExtendWith(LeakCheck.class)
class LeakCheckTest {

    @Test
    void reportsALeakedBuffer() {
        leak();
        assertFalse(LeakCheck.collectLeaks().isEmpty(), "the leak detector saw no leak");
    }

    private static void leak() {
        ByteBufAllocator.DEFAULT.buffer(16).writeInt(42);
    }
}
