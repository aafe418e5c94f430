package io.hasp.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.internal.topology.NodeAddress;
import org.junit.jupiter.api.Test;

/** When a new map gives a slot another master: what tells the lock engine to check its holds at once. */
class SlotMapTest {

    private static final NodeAddress A = new NodeAddress("127.0.0.1", 7000);
    private static final NodeAddress B = new NodeAddress("127.0.0.1", 7001);

    @Test
    void aSlotWithAnotherMasterCountsAndTheSameMapsDoNot() {
        SlotMap before = SlotMap.empty().withMaster(1, A).withMaster(2, A);
        assertFalse(SlotMap.empty().withMaster(1, A).withMaster(2, A).movedMastersSince(before));
        assertTrue(before.withMaster(2, B).movedMastersSince(before), "slot 2 failed over to B");
    }

    @Test
    void aSlotThatHadNoMasterAndGetsOneCounts() {
        SlotMap down = SlotMap.empty().withMaster(1, A);   // slot 2 lost its master
        assertTrue(down.withMaster(2, B).movedMastersSince(down), "slot 2 promoted B");
        assertFalse(SlotMap.empty().withMaster(1, A).movedMastersSince(down.withMaster(2, B)),
                "a slot left without a master has no holds to check there yet");
    }

    @Test
    void theFirstMapIsNoMove() {
        assertFalse(SlotMap.empty().withMaster(1, A).movedMastersSince(SlotMap.empty()));
    }
}
