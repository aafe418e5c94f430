package io.hasp.lock.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The key and channel names are Redisson 4.x's, and all carry the lock's hash tag. */
class RwKeysTest {

    @Test
    void plainNameIsWrappedInAHashTag() {
        assertEquals("{stock}", RwKeys.tag("stock"));
        assertEquals("redisson_rwlock:{stock}", RwKeys.channel("stock"));
        assertEquals("{stock}:c1:7:rwlock_timeout", RwKeys.timeoutPrefix("stock", "c1:7"));
        assertEquals("redisson_unlock_latch:{stock}:r9", RwKeys.unlockLatch("stock", "r9"));
        assertEquals("c1:7:write", RwKeys.writeField("c1:7"));
    }

    @Test
    void nameWithItsOwnHashTagIsKept() {
        assertEquals("{app}:stock", RwKeys.tag("{app}:stock"));
        assertEquals("redisson_rwlock:{app}:stock", RwKeys.channel("{app}:stock"));
        assertEquals("{app}:stock:c1:7:rwlock_timeout", RwKeys.timeoutPrefix("{app}:stock", "c1:7"));
    }

    @Test
    void messagesAreRedissons() {
        assertEquals("0", RwKeys.UNLOCK_MESSAGE);
        assertEquals("1", RwKeys.READ_UNLOCK_MESSAGE);
    }
}
