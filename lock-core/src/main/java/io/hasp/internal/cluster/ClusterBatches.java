package io.hasp.internal.cluster;

import io.hasp.RedisServerException;
import io.hasp.internal.Futures;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.internal.topology.NodeAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Per-key batches (the watchdog's renewals) on a Redis Cluster: one call per master for all the keys
 * it serves, whatever their slots (the keys travel among the arguments, since declared keys must share
 * a slot), so that a watchdog pass costs a few calls per master instead of one per slot. Stateless apart
 * from the cluster it uses; thread-safe.
 *
 * <p>A node answers only for the keys it serves. When the topology is behind (a slot moved or is
 * moving), the node's call fails with the server's error, or answers {@code '0'} for the moved keys;
 * then those keys are sent again one call per slot, routed through {@code MOVED} and {@code ASK} like
 * any command, and only that answer counts. A key is never answered {@code '0'} on the word of a node
 * that no longer serves its slot.
 */
final class ClusterBatches {

    private final ClusterView view;
    private final ClusterCommands cluster;

    ClusterBatches(ClusterView view, ClusterCommands cluster) {
        this.view = view;
        this.cluster = cluster;
    }

    /** Which batch {@code key} joins: the master that serves its slot now, or its slot while it has none. */
    Object group(String key) {
        NodeAddress master = view.map().masterOf(ClusterSlot.of(key));
        return master != null ? master : ClusterSlot.of(key);
    }

    /** Sends {@code batch} (its keys of one {@link #group}) to their master, confirming its {@code '0'}s by slot. */
    CompletableFuture<String> send(KeyBatch batch) {
        NodeAddress master = view.map().masterOf(ClusterSlot.of(batch.keys().get(0)));
        if (master == null) {
            return bySlot(batch);
        }
        CompletableFuture<String> onNode = Futures.sent(() -> batch.send(cluster.node(master), /* keysDeclared= */ false));
        return onNode.handle((outcome, failure) -> {
            if (failure != null) {
                if (Futures.unwrap(failure) instanceof RedisServerException) {
                    return bySlot(batch);   // e.g. a key the node no longer serves
                }
                return CompletableFuture.<String>failedFuture(Futures.unwrap(failure));
            }
            if (outcome == null || outcome.length() != batch.keys().size() || outcome.indexOf('0') < 0) {
                return CompletableFuture.completedFuture(outcome);
            }
            return confirmZeros(batch, outcome);
        }).thenCompose(f -> f);
    }

    /** Sends by slot the keys the node answered {@code '0'} for, and merges that answer into {@code outcome}. */
    private CompletableFuture<String> confirmZeros(KeyBatch batch, String outcome) {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < outcome.length(); i++) {
            if (outcome.charAt(i) == '0') {
                positions.add(i);
            }
        }
        return bySlot(batch.only(positions)).thenApply(again -> {
            char[] merged = outcome.toCharArray();
            for (int j = 0; j < positions.size(); j++) {
                merged[positions.get(j)] = again.charAt(j);
            }
            return new String(merged);
        });
    }

    /** One declared-keys call per slot, routed like any command; the answers merged in order. */
    private CompletableFuture<String> bySlot(KeyBatch batch) {
        List<String> keys = batch.keys();
        Map<Integer, List<Integer>> slots = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            slots.computeIfAbsent(ClusterSlot.of(keys.get(i)), s -> new ArrayList<>()).add(i);
        }
        char[] merged = new char[keys.size()];
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (List<Integer> positions : slots.values()) {
            KeyBatch part = slots.size() == 1 ? batch : batch.only(positions);
            CompletableFuture<String> call = Futures.sent(() -> part.send(cluster, /* keysDeclared= */ true));
            calls.add(call.thenAccept(answer -> {
                if (answer == null || answer.length() != positions.size()) {
                    throw new IllegalStateException("batch on " + part.keys() + ": unexpected reply " + answer);
                }
                for (int j = 0; j < positions.size(); j++) {
                    merged[positions.get(j)] = answer.charAt(j);
                }
            }));
        }
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).thenApply(v -> new String(merged));
    }
}
