package io.hasp.internal.sentinel;

import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.Replies;
import io.hasp.internal.Futures;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.resp.RespArray;
import io.hasp.resp.RespBulkString;
import io.hasp.resp.RespSimpleString;
import io.hasp.resp.RespValue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Finds the master that a Sentinel deployment names for one master name: asks the sentinels in turn
 * ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}), then asks the named data node itself ({@code ROLE}),
 * since a sentinel may not have seen a failover yet. The first sentinel whose answer the data node
 * confirms wins. When none does, the failure names every sentinel asked and what each answered: down,
 * a master name it does not monitor, or a node that is not a master. Stateless; thread-safe.
 */
public final class SentinelDiscovery {

    private final List<NodeAddress> sentinels;
    private final String masterName;
    private final Function<NodeAddress, RedisCommands> sentinelConnections;
    private final Function<NodeAddress, RedisCommands> nodeConnections;

    /**
     * @param sentinels the sentinels, asked in this order
     * @param masterName the name the sentinels monitor the master under
     * @param sentinelConnections the commands of the sentinel at an address (with the sentinels' credentials)
     * @param nodeConnections the commands of the data node at an address (with the data nodes' credentials)
     */
    public SentinelDiscovery(List<NodeAddress> sentinels, String masterName,
            Function<NodeAddress, RedisCommands> sentinelConnections,
            Function<NodeAddress, RedisCommands> nodeConnections) {
        if (sentinels == null || sentinels.isEmpty()) {
            throw new IllegalArgumentException("sentinels: " + sentinels + " (expected: at least one host:port)");
        }
        if (masterName == null || masterName.isEmpty()) {
            throw new IllegalArgumentException("masterName: " + (masterName == null ? "null" : "empty")
                    + " (expected: the name the sentinels monitor)");
        }
        this.sentinels = List.copyOf(sentinels);
        this.masterName = masterName;
        this.sentinelConnections = sentinelConnections;
        this.nodeConnections = nodeConnections;
    }

    /** The name the sentinels monitor the master under. */
    public String masterName() {
        return masterName;
    }

    /**
     * Asks for the master.
     *
     * @return completes with the address of the data node that a sentinel names and that says it is a
     *     master; fails with {@link RedisConnectionException} naming each sentinel and its answer
     */
    public CompletableFuture<NodeAddress> master() {
        return ask(0, new ArrayList<>());
    }

    private CompletableFuture<NodeAddress> ask(int index, List<String> answers) {
        if (index == sentinels.size()) {
            return CompletableFuture.failedFuture(new RedisConnectionException("no master '" + masterName
                    + "' from the sentinels " + sentinels + ": " + String.join("; ", answers), null));
        }
        NodeAddress sentinel = sentinels.get(index);
        return Futures.sent(() -> sentinelConnections.apply(sentinel)
                        .execute(Replies.VALUE, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName))
                .thenCompose(reply -> {
                    NodeAddress named = address(reply);
                    if (named == null) {
                        throw new IllegalStateException("does not monitor a master named '" + masterName + "'");
                    }
                    return Futures.sent(() -> nodeConnections.apply(named).execute(Replies.VALUE, "ROLE"))
                            .thenApply(role -> {
                                String said = role(role);
                                if (!"master".equals(said)) {
                                    throw new IllegalStateException("names " + named + ", which says it is " + said);
                                }
                                return named;
                            });
                })
                .exceptionallyCompose(failure -> {
                    answers.add(sentinel + " " + Futures.unwrap(failure).getMessage());
                    return ask(index + 1, answers);
                });
    }

    /**
     * Whether the data node {@code node} says it is a master ({@code ROLE}).
     *
     * @return completes with false also when the node does not answer
     */
    public CompletableFuture<Boolean> saysMaster(NodeAddress node) {
        return Futures.sent(() -> nodeConnections.apply(node).execute(Replies.VALUE, "ROLE"))
                .handle((role, failure) -> failure == null && "master".equals(role(role)));
    }

    /** The {@code [host, port]} of a GET-MASTER-ADDR-BY-NAME reply; null for a name the sentinel does not monitor. */
    static NodeAddress address(RespValue reply) {
        if (!(reply instanceof RespArray array)) {
            return null;   // a null reply: no such master
        }
        List<RespValue> fields = array.elements();
        if (fields.size() != 2) {
            throw new IllegalStateException("answered " + fields.size() + " fields (expected: host and port)");
        }
        String port = text(fields.get(1));
        try {
            return new NodeAddress(text(fields.get(0)), Integer.parseInt(port));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("answered " + fields + ": " + e.getMessage(), e);
        }
    }

    /** The role a {@code ROLE} reply names first ({@code master}, {@code slave}, {@code sentinel}). */
    static String role(RespValue reply) {
        if (reply instanceof RespArray array && !array.elements().isEmpty()) {
            return text(array.elements().get(0));
        }
        return String.valueOf(reply);
    }

    private static String text(RespValue value) {
        if (value instanceof RespBulkString bulk) {
            return bulk.asString();
        }
        if (value instanceof RespSimpleString simple) {
            return simple.value();
        }
        return String.valueOf(value);
    }
}
