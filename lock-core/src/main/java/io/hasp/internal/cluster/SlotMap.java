package io.hasp.internal.cluster;

import io.hasp.internal.topology.NodeAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which master serves each of the 16,384 slots, and the replicas known for each master: one
 * snapshot of a cluster's topology, immutable and safe to share. Replicas are known, never used
 * for lock commands. A slot no master serves (a cluster being resharded or degraded) has none.
 */
public final class SlotMap {

    private final NodeAddress[] masterBySlot;
    private final Map<NodeAddress, List<NodeAddress>> replicas;

    private SlotMap(NodeAddress[] masterBySlot, Map<NodeAddress, List<NodeAddress>> replicas) {
        this.masterBySlot = masterBySlot;
        this.replicas = replicas;
    }

    /** A map in which no slot has a master: the topology before the first discovery. */
    public static SlotMap empty() {
        return new Builder().build();
    }

    /** The master serving {@code slot}, or null when no master serves it. */
    public NodeAddress masterOf(int slot) {
        return masterBySlot[slot];
    }

    /** Every master that serves at least one slot, in the order first seen. */
    public Set<NodeAddress> masters() {
        return replicas.keySet();
    }

    /** The replicas known for {@code master} (empty when none). */
    public List<NodeAddress> replicasOf(NodeAddress master) {
        return replicas.getOrDefault(master, List.of());
    }

    /** A copy of this map in which {@code master} serves {@code slot} (after a {@code MOVED}). */
    public SlotMap withMaster(int slot, NodeAddress master) {
        NodeAddress[] moved = masterBySlot.clone();
        moved[slot] = master;
        Map<NodeAddress, List<NodeAddress>> known = new LinkedHashMap<>(replicas);
        known.putIfAbsent(master, List.of());
        return new SlotMap(moved, Collections.unmodifiableMap(known));
    }

    /**
     * Whether some slot has a master here other than its master in {@code before} (a slot that had none
     * counts): a failover, or a slot moved. Never for the first map ({@code before} knows no master).
     */
    public boolean movedMastersSince(SlotMap before) {
        if (before.masters().isEmpty()) {
            return false;
        }
        for (int slot = 0; slot < masterBySlot.length; slot++) {
            NodeAddress now = masterBySlot[slot];
            if (now != null && !now.equals(before.masterBySlot[slot])) {
                return true;
            }
        }
        return false;
    }

    /** How many slots have a master. */
    public int coveredSlots() {
        int covered = 0;
        for (NodeAddress master : masterBySlot) {
            if (master != null) {
                covered++;
            }
        }
        return covered;
    }

    @Override
    public String toString() {
        return "SlotMap[" + masters().size() + " masters, " + coveredSlots() + " of " + ClusterSlot.SLOTS + " slots]";
    }

    /** Collects slot ranges and nodes; {@link #build()} makes the immutable map. */
    static final class Builder {
        private final NodeAddress[] masterBySlot = new NodeAddress[ClusterSlot.SLOTS];
        private final Map<NodeAddress, Set<NodeAddress>> replicas = new LinkedHashMap<>();

        /** {@code master} serves slots {@code from..to}, both included. */
        Builder range(int from, int to, NodeAddress master) {
            if (from < 0 || to >= ClusterSlot.SLOTS || from > to) {
                throw new IllegalArgumentException("slots: " + from + ".." + to + " (expected: a range in 0.."
                        + (ClusterSlot.SLOTS - 1) + ")");
            }
            for (int slot = from; slot <= to; slot++) {
                masterBySlot[slot] = master;
            }
            replicas.computeIfAbsent(master, m -> new LinkedHashSet<>());
            return this;
        }

        /** {@code replica} follows {@code master}. */
        Builder replica(NodeAddress master, NodeAddress replica) {
            replicas.computeIfAbsent(master, m -> new LinkedHashSet<>()).add(replica);
            return this;
        }

        SlotMap build() {
            Map<NodeAddress, List<NodeAddress>> frozen = new LinkedHashMap<>();
            for (Map.Entry<NodeAddress, Set<NodeAddress>> entry : replicas.entrySet()) {
                frozen.put(entry.getKey(), List.copyOf(entry.getValue()));
            }
            // Masters that serve no slot any more are dropped: only slot owners are masters here.
            List<NodeAddress> serving = new ArrayList<>();
            for (NodeAddress master : masterBySlot) {
                if (master != null && !serving.contains(master)) {
                    serving.add(master);
                }
            }
            frozen.keySet().retainAll(serving);
            return new SlotMap(masterBySlot.clone(), Collections.unmodifiableMap(frozen));
        }
    }
}
