package io.hasp.lock.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.lock.HoldEnd;
import org.junit.jupiter.api.Test;

/** The hold registry: one hold per lock, mode and owner; an ended hold is never updated again. */
class RwHoldsTest {

    private final RwHolds holds = new RwHolds();

    @Test
    void readAndWriteHoldsOfOneOwnerAreSeparate() {
        RwHold read = holds.acquired("a", LockMode.READ, "c:1", 1, 1_000, true, 0);
        RwHold write = holds.acquired("a", LockMode.WRITE, "c:1", 1, 1_000, true, 0);
        assertNotSame(read, write);
        assertSame(read, holds.acquired("a", LockMode.READ, "c:1", 2, 1_000, true, 0));
        assertEquals(2, holds.count("a", LockMode.READ, "c:1"));
        assertEquals(1, holds.count("a", LockMode.WRITE, "c:1"));
    }

    @Test
    void acquisitionLandingOnAnEndedHoldStartsANewOne() {
        RwHold first = holds.acquired("a", LockMode.READ, "c:1", 1, 1_000, true, 0);
        first.end(HoldEnd.LOST);   // ended, not yet removed from the registry
        RwHold second = holds.acquired("a", LockMode.READ, "c:1", 1, 1_000, true, 0);
        assertNotSame(first, second);
        assertSame(second, holds.get("a", LockMode.READ, "c:1"));
        holds.end(first, HoldEnd.LOST);
        assertSame(second, holds.get("a", LockMode.READ, "c:1"), "ending the old hold keeps the new one");
        assertTrue(!second.end.isDone());
    }
}
