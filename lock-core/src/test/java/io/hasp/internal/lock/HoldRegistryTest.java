package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The registry's record of holds that ended unreleased, as an unlock sees it: whenever a hold is no longer
 * registered, the unlock that finds it gone must find why it ended, even while the hold's end is still being told
 * (its future's callbacks and the listener run on the thread that ended it, and may be slow).
 */
class HoldRegistryTest {

    private static final LockKind KIND = ReentrantKind.INSTANCE;
    private static final LockOwner OWNER = LockOwner.of("client", 1);

    @Test
    void aHoldThatEndsLostIsRememberedBeforeItsEndIsTold() {
        for (HoldEnd how : new HoldEnd[] {HoldEnd.LOST, HoldEnd.EXPIRED}) {
            HoldRegistry holds = new HoldRegistry();
            Hold hold = holds.acquired(KIND, "lock", OWNER, 1, 30_000, true, 0);
            List<Object> seenAtEnd = new ArrayList<>();
            // What an unlock started by the owner the moment its holdEnd() completes would see.
            hold.end.thenRun(() -> {
                seenAtEnd.add(holds.get(KIND, "lock", OWNER));
                seenAtEnd.add(holds.forgetEnded(hold.key));
            });
            holds.end(hold, how, "why");
            assertNull(seenAtEnd.get(0), "no longer registered");
            HoldRegistry.Ended ended = (HoldRegistry.Ended) seenAtEnd.get(1);
            assertEquals(how, ended == null ? null : ended.how(), "already remembered as " + how);
            assertEquals("why", ended.why());
        }
    }

    @Test
    void aReleasedHoldIsNotRemembered() {
        HoldRegistry holds = new HoldRegistry();
        Hold hold = holds.acquired(KIND, "lock", OWNER, 1, 30_000, true, 0);
        holds.end(hold, HoldEnd.RELEASED);
        assertNull(holds.forgetEnded(hold.key));
        Hold next = holds.acquired(KIND, "lock", OWNER, 1, 30_000, true, 0);
        assertSame(next, holds.get(KIND, "lock", OWNER));
    }
}
