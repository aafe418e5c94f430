package io.hasp.internal.lock;

import io.hasp.RedisServerException;
import io.hasp.internal.Futures;
import io.hasp.internal.cluster.ClusterCommands;
import io.hasp.internal.cluster.ClusterSlot;
import io.hasp.internal.cluster.NodeAddress;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The watchdog's renewal on a Redis Cluster: one script call per master for all the holds it
 * serves, whatever their slots ({@link LockKind#renewOnNode}), so that a pass costs a few calls
 * per master instead of one per slot. Thread-safe and stateless apart from the cluster it uses.
 *
 * <p>A node renews only the keys it serves. When the topology is behind (a slot moved or is
 * moving), the node's call fails with the server's error, or reports the moved holds as not
 * held; then those holds are renewed again one call per slot, routed through {@code MOVED} and
 * {@code ASK} like any command, and only that answer counts. A hold is never reported lost on the
 * word of a node that no longer serves its slot.
 */
final class ClusterRenewal implements LeaseRenewer.Renewal {

    private final ClusterCommands cluster;

    ClusterRenewal(ClusterCommands cluster) {
        this.cluster = cluster;
    }

    /** Which batch the holds of lock {@code name} join: the master that serves its slot now. */
    Object batchGroup(String name) {
        NodeAddress master = cluster.map().masterOf(ClusterSlot.of(name));
        return master != null ? master : ClusterSlot.of(name);
    }

    @Override
    public CompletableFuture<String> renew(LockKind kind, List<String> names, List<LockOwner> owners, long leaseMillis) {
        NodeAddress master = cluster.map().masterOf(ClusterSlot.of(names.get(0)));
        if (master == null) {
            return bySlot(kind, names, owners, leaseMillis);
        }
        CompletableFuture<String> onNode;
        try {
            onNode = kind.renewOnNode(cluster.node(master), names, owners, leaseMillis);
        } catch (RuntimeException e) {
            onNode = CompletableFuture.failedFuture(e);
        }
        return onNode.handle((outcome, failure) -> {
            if (failure != null) {
                if (Futures.unwrap(failure) instanceof RedisServerException) {
                    return bySlot(kind, names, owners, leaseMillis);   // e.g. a key the node no longer serves
                }
                return CompletableFuture.<String>failedFuture(Futures.unwrap(failure));
            }
            if (outcome == null || outcome.length() != names.size() || outcome.indexOf('0') < 0) {
                return CompletableFuture.completedFuture(outcome);
            }
            return confirmNotHeld(kind, names, owners, leaseMillis, outcome);
        }).thenCompose(f -> f);
    }

    /** Renews by slot the holds the node reported not held, and merges that answer into {@code outcome}. */
    private CompletableFuture<String> confirmNotHeld(LockKind kind, List<String> names, List<LockOwner> owners,
            long leaseMillis, String outcome) {
        List<Integer> positions = new ArrayList<>();
        List<String> againNames = new ArrayList<>();
        List<LockOwner> againOwners = new ArrayList<>();
        for (int i = 0; i < outcome.length(); i++) {
            if (outcome.charAt(i) == '0') {
                positions.add(i);
                againNames.add(names.get(i));
                againOwners.add(owners.get(i));
            }
        }
        return bySlot(kind, againNames, againOwners, leaseMillis).thenApply(again -> {
            char[] merged = outcome.toCharArray();
            for (int j = 0; j < positions.size(); j++) {
                merged[positions.get(j)] = again.charAt(j);
            }
            return new String(merged);
        });
    }

    /** One declared-keys call per slot, routed like any command; the answers merged in order. */
    private CompletableFuture<String> bySlot(LockKind kind, List<String> names, List<LockOwner> owners,
            long leaseMillis) {
        Map<Integer, List<Integer>> slots = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            slots.computeIfAbsent(ClusterSlot.of(names.get(i)), s -> new ArrayList<>()).add(i);
        }
        char[] merged = new char[names.size()];
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (List<Integer> positions : slots.values()) {
            List<String> slotNames = new ArrayList<>(positions.size());
            List<LockOwner> slotOwners = new ArrayList<>(positions.size());
            for (int i : positions) {
                slotNames.add(names.get(i));
                slotOwners.add(owners.get(i));
            }
            CompletableFuture<String> call;
            try {
                call = kind.renew(cluster, slotNames, slotOwners, leaseMillis);
            } catch (RuntimeException e) {
                call = CompletableFuture.failedFuture(e);
            }
            calls.add(call.thenAccept(answer -> {
                if (answer == null || answer.length() != positions.size()) {
                    throw new IllegalStateException("renewal of " + slotNames + ": unexpected reply " + answer);
                }
                for (int j = 0; j < positions.size(); j++) {
                    merged[positions.get(j)] = answer.charAt(j);
                }
            }));
        }
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).thenApply(v -> new String(merged));
    }
}
