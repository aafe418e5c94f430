package io.hasp.internal.cluster;

import io.hasp.internal.Backoff;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the new master of the slots a lost node served. A master that died is replaced by its replica
 * only once the cluster has noticed (its {@code cluster-node-timeout}) and elected it; a topology read
 * in between still names the dead master, or, once the cluster marked it failed, no master at all for
 * its slots, and no node is left to answer {@code MOVED} for them. So after a node is lost (its
 * connection dropped, or could not be opened, or a command to it found it unreachable), the topology is
 * read again and again, the pause growing from {@link #MIN_PAUSE} to {@link #MAX_PAUSE} with some jitter,
 * for as long as one of the slots it served (or that had no master when it was lost) has no master or
 * still has that node while it cannot be reached. After the client's periodic refresh period the search
 * stops, with a warning, and the periodic reads go on from there: no new search for that node starts for
 * another period. One search per node at a time. Thread-safe.
 */
final class LostNodeFollower {

    private static final Logger log = LoggerFactory.getLogger(LostNodeFollower.class);
    /** The first pause between two reads of one search. */
    static final Duration MIN_PAUSE = Duration.ofMillis(100);
    /** The longest pause between two reads of one search. */
    static final Duration MAX_PAUSE = Duration.ofSeconds(1);
    private static final Backoff PAUSES = new Backoff(MIN_PAUSE, MAX_PAUSE, 0.2);

    private final NodeConnections nodes;
    private final Supplier<SlotMap> map;
    private final Supplier<CompletableFuture<SlotMap>> refresh;
    private final Scheduler scheduler;
    private final LongSupplier clock;
    private final ConcurrentMap<NodeAddress, Search> searches = new ConcurrentHashMap<>();
    /** Until when (clock) a node's new reports start no search: its last search ended lately. */
    private final ConcurrentMap<NodeAddress, Long> quiet = new ConcurrentHashMap<>();
    private volatile long limitNanos = TimeUnit.SECONDS.toNanos(30);
    private volatile boolean closed;
    private volatile Predicate<NodeAddress> alsoReachable = node -> false;

    /** Runs a task after a pause; throws when the client's timer has stopped. */
    interface Scheduler {
        void schedule(Runnable task, long delayNanos);
    }

    /**
     * @param nodes the nodes' connections: which ones answer now
     * @param map the current topology
     * @param refresh reads the topology again (at most one read at a time); completes with the map in use
     * @param scheduler the client's timer
     * @param clock {@link System#nanoTime()}, or a test's
     */
    LostNodeFollower(NodeConnections nodes, Supplier<SlotMap> map, Supplier<CompletableFuture<SlotMap>> refresh,
            Scheduler scheduler, LongSupplier clock) {
        this.nodes = nodes;
        this.map = map;
        this.refresh = refresh;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /**
     * Also counts {@code node} as reachable while {@code connected} says so (its pub/sub connection is up, say): a
     * node that carries only a client's subscriptions has no command connection to tell that it answers.
     */
    void alsoReachable(Predicate<NodeAddress> connected) {
        this.alsoReachable = connected;
    }

    /** Whether a connection of this client to {@code node} is up now. */
    private boolean reachable(NodeAddress node) {
        return nodes.isConnected(node) || alsoReachable.test(node);
    }

    /** How long one search goes on: the client's periodic refresh period, which takes over after it. */
    void limit(Duration period) {
        this.limitNanos = period.toNanos();
    }

    /**
     * {@code node} was lost: starts a search for the new master of its slots, unless one runs, or one ended
     * lately (within {@link #MAX_PAUSE} of finding the successor, or within the limit of giving up: the
     * commands that were still waiting on the lost node fail after it, and report it again).
     */
    void lost(NodeAddress node) {
        if (closed || searches.containsKey(node)) {
            return;   // cheap before the slot scan: every command failing on a dead node reports it
        }
        Long quietUntil = quiet.get(node);
        if (quietUntil != null) {
            if (clock.getAsLong() - quietUntil < 0) {
                return;
            }
            quiet.remove(node, quietUntil);
        }
        start(node);
    }

    private void start(NodeAddress node) {
        Search search = new Search(node, watchedSlots(map.get(), node), clock.getAsLong());
        if (searches.putIfAbsent(node, search) == null) {
            search.read(0);
        }
    }

    private void end(Search search, long quietNanos) {
        quiet.put(search.node, clock.getAsLong() + quietNanos);
        searches.remove(search.node, search);
    }

    /** Stops every search (the client is closing). */
    void close() {
        closed = true;
    }

    /** @return whether a search for {@code node}'s slots runs now; for tests */
    boolean searching(NodeAddress node) {
        return searches.containsKey(node);
    }

    /** The slots {@code node} serves in {@code topology}, and those that have no master there. */
    private static int[] watchedSlots(SlotMap topology, NodeAddress node) {
        int count = 0;
        int[] slots = new int[ClusterSlot.SLOTS];
        for (int slot = 0; slot < ClusterSlot.SLOTS; slot++) {
            NodeAddress master = topology.masterOf(slot);
            if (master == null || master.equals(node)) {
                slots[count++] = slot;
            }
        }
        return Arrays.copyOf(slots, count);
    }

    /** One search: a lost node, the slots to see served again, when it started. */
    private final class Search {
        private final NodeAddress node;
        private final int[] slots;
        private final long startedNanos;

        Search(NodeAddress node, int[] slots, long startedNanos) {
            this.node = node;
            this.slots = slots;
            this.startedNanos = startedNanos;
        }

        void read(int pauses) {
            refresh.get().whenComplete((current, e) -> {
                if (closed) {
                    searches.remove(node, this);
                    return;
                }
                int unserved = unserved(current);
                if (unserved == 0) {
                    end(this, MAX_PAUSE.toNanos());
                    // A loss reported between the check and the removal found this search still running.
                    if (!reachable(node) && unserved(map.get()) > 0) {
                        start(node);
                    }
                    return;
                }
                if (clock.getAsLong() - startedNanos >= limitNanos) {
                    end(this, limitNanos);
                    log.warn("hasp: {} slot(s) that {} served have had no reachable master for {} s; the topology"
                            + " is read again at the periodic refresh from now on", unserved, node,
                            TimeUnit.NANOSECONDS.toSeconds(limitNanos));
                    return;
                }
                try {
                    scheduler.schedule(() -> read(pauses + 1), PAUSES.delayNanos(pauses));
                } catch (RuntimeException timerStopped) {
                    searches.remove(node, this);   // the client is closing
                }
            });
        }

        /** How many of the watched slots have no master in {@code topology}, or the lost node while it is down. */
        private int unserved(SlotMap topology) {
            boolean nodeDown = !reachable(node);
            int unserved = 0;
            for (int slot : slots) {
                NodeAddress master = topology.masterOf(slot);
                if (master == null || (nodeDown && master.equals(node))) {
                    unserved++;
                }
            }
            return unserved;
        }
    }
}
