package io.hasp.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The search for a lost node's successor, without a server: the topology reads are scripted, the pauses
 * run when the test says, and no node is connected (a {@link NodeConnections} that never opened one).
 */
class LostNodeFollowerTest {

    private static final NodeAddress A = new NodeAddress("127.0.0.1", 7000);
    private static final NodeAddress B = new NodeAddress("127.0.0.1", 7001);
    private static final NodeAddress B_REPLICA = new NodeAddress("127.0.0.1", 7004);

    private final NodeConnections nodes = new NodeConnections(HaspConfig.builder().build(), null, null);
    private final AtomicReference<SlotMap> map = new AtomicReference<>(twoMasters(B));
    /** What each read finds; the last one again once they run out. */
    private final Deque<SlotMap> reads = new ArrayDeque<>();
    private final AtomicInteger readCount = new AtomicInteger();
    private final Deque<Runnable> pauses = new ArrayDeque<>();
    private final AtomicLong clock = new AtomicLong();
    private final LostNodeFollower follower = new LostNodeFollower(nodes, map::get, this::read,
            (task, delayNanos) -> pauses.add(task), clock::get);

    /** A serves the first half of the slots, {@code second} (or nobody, when null) the second half. */
    private static SlotMap twoMasters(NodeAddress second) {
        SlotMap.Builder builder = new SlotMap.Builder().range(0, 8191, A);
        if (second != null) {
            builder.range(8192, ClusterSlot.SLOTS - 1, second);
        }
        return builder.build();
    }

    private CompletableFuture<SlotMap> read() {
        readCount.incrementAndGet();
        SlotMap found = reads.size() > 1 ? reads.poll() : reads.peek();
        if (found != null) {
            map.set(found);
        }
        return CompletableFuture.completedFuture(map.get());
    }

    private void runPause() {
        Runnable next = pauses.poll();
        assertTrue(next != null, "a pause was scheduled");
        next.run();
    }

    @Test
    void readsUntilTheLostMastersSlotsHaveItsSuccessor() {
        // Before the cluster notices: still B. Then B marked failed, no master yet. Then the replica.
        reads.add(twoMasters(B));
        reads.add(twoMasters(null));
        reads.add(twoMasters(B_REPLICA));
        follower.lost(B);
        assertEquals(1, readCount.get());
        assertTrue(follower.searching(B));
        runPause();
        assertEquals(2, readCount.get(), "no master for B's slots: read again");
        assertTrue(follower.searching(B));
        runPause();
        assertEquals(3, readCount.get());
        assertFalse(follower.searching(B), "the replica serves B's slots: the search ends");
        assertTrue(pauses.isEmpty(), "and schedules nothing more");
    }

    @Test
    void aNodeWhoseOtherConnectionIsBackEndsTheSearch() {
        // B carries only subscriptions of this client: no command connection says whether it answers.
        AtomicBoolean subscriptionsUp = new AtomicBoolean(false);
        follower.alsoReachable(node -> node.equals(B) && subscriptionsUp.get());
        reads.add(twoMasters(B));
        follower.lost(B);
        assertTrue(follower.searching(B), "B still named, and nothing of this client reaches it");
        subscriptionsUp.set(true);   // a blip: the subscriptions' connection came back
        runPause();
        assertFalse(follower.searching(B), "B answers again: nothing to look for");
        assertTrue(pauses.isEmpty());
    }

    @Test
    void aNodeLostAgainWhileSearchedForStartsNoSecondSearch() {
        reads.add(twoMasters(B));
        follower.lost(B);
        follower.lost(B);
        assertEquals(1, readCount.get());
        assertEquals(1, pauses.size());
    }

    @Test
    void aLostNodeThatServedNothingNeedsOneRead() {
        NodeAddress replica = new NodeAddress("127.0.0.1", 7005);
        reads.add(twoMasters(B));
        follower.lost(replica);
        assertEquals(1, readCount.get());
        assertFalse(follower.searching(replica));
        assertTrue(pauses.isEmpty());
    }

    @Test
    void slotsWithoutAMasterWhenTheNodeWasLostAreWatchedToo() {
        map.set(twoMasters(null));   // an earlier read, during the failover, already dropped B
        reads.add(twoMasters(null));
        reads.add(twoMasters(B_REPLICA));
        follower.lost(B);
        assertTrue(follower.searching(B), "B is gone from the map, but its slots have no master");
        runPause();
        assertFalse(follower.searching(B));
    }

    @Test
    void theSearchEndsAfterTheLimitAndThePeriodicReadsTakeOver() {
        follower.limit(Duration.ofSeconds(30));
        reads.add(twoMasters(null));
        follower.lost(B);
        clock.addAndGet(Duration.ofSeconds(29).toNanos());
        runPause();
        assertTrue(follower.searching(B), "within the limit");
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        runPause();
        assertFalse(follower.searching(B));
        assertTrue(pauses.isEmpty());
        int reads = readCount.get();
        follower.lost(B);
        assertFalse(follower.searching(B), "given up: the periodic reads take over for a period");
        assertEquals(reads, readCount.get());
        clock.addAndGet(Duration.ofSeconds(30).toNanos());
        follower.lost(B);
        assertTrue(follower.searching(B), "a loss a period later starts a new search");
    }

    @Test
    void reportsJustAfterASearchFoundTheSuccessorStartNoNewSearch() {
        reads.add(twoMasters(B));
        reads.add(twoMasters(B_REPLICA));
        follower.lost(B);
        runPause();
        assertFalse(follower.searching(B));
        int reads = readCount.get();
        // Commands still waiting on the dead node fail now, and report it.
        follower.lost(B);
        follower.lost(B);
        assertEquals(reads, readCount.get(), "no read for them");
        clock.addAndGet(LostNodeFollower.MAX_PAUSE.toNanos());
        follower.lost(B);
        assertEquals(reads + 1, readCount.get(), "a loss after that is a new one");
    }

    @Test
    void closingStopsTheSearch() {
        reads.add(twoMasters(null));
        follower.lost(B);
        follower.close();
        runPause();
        assertFalse(follower.searching(B));
        assertTrue(pauses.isEmpty());
        follower.lost(B);
        assertFalse(follower.searching(B), "none starts once closed");
    }
}
