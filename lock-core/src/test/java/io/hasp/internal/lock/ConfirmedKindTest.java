package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.hasp.ReplicaAcks;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link ConfirmedKind}: views of one lock's modes confirmed alike keep the modes' order and their holds together. */
class ConfirmedKindTest {

    private static final ReplicaAcks ONE = ReplicaAcks.of(1, Duration.ofMillis(100));

    private final MemoryPubSub pubSub = new MemoryPubSub();
    private final MemoryKind read = new MemoryKind(System::nanoTime, pubSub);
    private final MemoryKind write = new MemoryKind(System::nanoTime, pubSub, read);
    private final LockOwner owner = LockOwner.of("00000000-0000-8000-8000-000000000001", 7);

    @Test
    void theConfirmedModesOfOneLockAreOrderedTogether() {
        ConfirmedKind confirmedRead = new ConfirmedKind(read, ONE);
        ConfirmedKind confirmedWrite = new ConfirmedKind(write, ONE);
        assertSame(confirmedRead, confirmedRead.orderedWith(), "a kind ordered with itself stays itself");
        HoldKey readOrder = HoldKey.of(confirmedRead, "catalogue", owner).ordering(owner);
        assertEquals(readOrder, HoldKey.of(confirmedWrite, "catalogue", owner).ordering(owner),
                "taking one confirmed mode waits for the owner's unlock of the other");
        assertNotEquals(readOrder, HoldKey.of(write, "catalogue", owner).ordering(owner),
                "a view with other confirmations is another lock's order, as its holds are other holds");
    }

    @Test
    void theHoldsOfConfirmedViewsCountAsTheirBaseKinds() {
        HoldRegistry holds = new HoldRegistry();
        holds.acquired(HoldKey.of(new ConfirmedKind(read, ONE), "catalogue", owner), owner, 1, 30_000, true, 0);
        holds.acquired(HoldKey.of(read, "other", owner), owner, 1, 30_000, true, 0);
        assertEquals(2, holds.size(read));
        assertEquals(0, holds.size(write));
    }
}
