package io.hasp.internal.cluster;

import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.Replies;
import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.hasp.internal.connection.NotSentException;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@link RedisCommands} on a Redis Cluster: every keyed command and script call goes to the
 * master of its key's slot. {@code MOVED} records the slot's new master and sends again there;
 * {@code ASK} sends {@code ASKING} and the command to the named node once, without changing the
 * map; {@code TRYAGAIN} and {@code CLUSTERDOWN} are sent again after a growing pause, within the
 * command's retry budget. A command is sent again only after the server refused it with one of
 * those errors, that is, when it did not run, so re-sending never runs it twice.
 *
 * <p>Where each slot is served comes from the {@link ClusterView}, which this routing keeps current with
 * what redirects and lost nodes teach. For {@link #execute}, the first argument is taken as the key (true of the commands locks and
 * most applications send); a command without arguments goes to a master. Scripts must keep all
 * their keys in one slot, as hasp's locks do through their {@code {name}} hash tags. Thread-safe.
 */
public final class ClusterCommands implements RedisCommands {

    /** How many MOVED or ASK redirects one command (or subscription) follows before it fails. */
    static final int MAX_REDIRECTS = 5;

    private final NodeConnections nodes;
    private final ClusterView view;
    private final Timer timer;
    private final long retryBudgetNanos;
    /** What confirms the scripts sent to each node: the client's setting, or a lock's own. */
    private final ReplicaAcks acks;

    /**
     * @param nodes the nodes' connections
     * @param view the client's view of the cluster: where each slot is served, kept current
     * @param timer the client's timer, for pauses between retries
     * @param retryBudgetMillis how long TRYAGAIN and CLUSTERDOWN are retried for
     */
    public ClusterCommands(NodeConnections nodes, ClusterView view, Timer timer, long retryBudgetMillis) {
        this(nodes, view, timer, retryBudgetMillis, null);
    }

    /**
     * The same routing, with each node's scripts confirmed by {@code acks} ({@code null}: the client's
     * setting).
     */
    public ClusterCommands(NodeConnections nodes, ClusterView view, Timer timer, long retryBudgetMillis,
            ReplicaAcks acks) {
        this.nodes = nodes;
        this.view = view;
        this.timer = timer;
        this.retryBudgetNanos = TimeUnit.MILLISECONDS.toNanos(retryBudgetMillis);
        this.acks = acks;
    }

    /** The commands of {@code node}, confirmed as this router's scripts must be. */
    private RedisCommands commandsOf(NodeAddress node) {
        return acks == null ? nodes.of(node) : nodes.of(node, acks);
    }

    /**
     * The commands of one node, unrouted: what is sent there runs there or fails with the node's
     * redirection error. For work that must reach a given master, such as a watchdog batch.
     */
    public RedisCommands node(NodeAddress node) {
        return nodes.of(node);
    }

    @Override
    public <T> CompletableFuture<T> evalsha(Script script, Reply<T> reply, List<String> keys, Object... args) {
        if (keys == null || keys.isEmpty()) {
            return anyMaster(c -> c.evalsha(script, reply, keys, args));
        }
        int slot = ClusterSlot.of(keys.get(0));
        for (int i = 1; i < keys.size(); i++) {
            if (ClusterSlot.of(keys.get(i)) != slot) {
                throw new IllegalArgumentException("keys: " + keys + " (expected: all in one slot, e.g. sharing a {hash tag})");
            }
        }
        return routed(slot, c -> c.evalsha(script, reply, keys, args));
    }

    @Override
    public <T> CompletableFuture<T> execute(Reply<T> reply, String command, Object... args) {
        if (args.length == 0 || !(args[0] instanceof CharSequence)) {
            return anyMaster(c -> c.execute(reply, command, args));
        }
        return routed(ClusterSlot.of(args[0].toString()), c -> c.execute(reply, command, args));
    }

    @Override
    public CompletableFuture<String> scriptLoad(Script script) {
        List<CompletableFuture<String>> loads = new ArrayList<>();
        for (NodeAddress master : view.map().masters()) {
            loads.add(nodes.of(master).scriptLoad(script));
        }
        return CompletableFuture.allOf(loads.toArray(new CompletableFuture<?>[0])).thenApply(v -> loads.get(0).join());
    }

    @Override
    public CompletableFuture<Long> publish(String channel, String message) {
        return anyMaster(c -> c.publish(channel, message));
    }

    @Override
    public CompletableFuture<Long> pttl(String key) {
        return routed(ClusterSlot.of(key), c -> c.pttl(key));
    }

    @Override
    public CompletableFuture<String> hget(String key, String field) {
        return routed(ClusterSlot.of(key), c -> c.hget(key, field));
    }

    @Override
    public CompletableFuture<Boolean> hexists(String key, String field) {
        return routed(ClusterSlot.of(key), c -> c.hexists(key, field));
    }

    @Override
    public CompletableFuture<Long> hlen(String key) {
        return routed(ClusterSlot.of(key), c -> c.hlen(key));
    }

    /** Deletes {@code keys}, one DEL per slot; the future is the number deleted in all. */
    @Override
    public CompletableFuture<Long> del(String... keys) {
        if (keys == null || keys.length == 0) {
            throw new IllegalArgumentException("keys: none (expected: at least one key)");
        }
        Map<Integer, List<String>> bySlot = new LinkedHashMap<>();
        for (String key : keys) {
            bySlot.computeIfAbsent(ClusterSlot.of(key), s -> new ArrayList<>()).add(key);
        }
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        for (Map.Entry<Integer, List<String>> slot : bySlot.entrySet()) {
            String[] group = slot.getValue().toArray(new String[0]);
            parts.add(routed(slot.getKey(), c -> c.del(group)));
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (CompletableFuture<Long> part : parts) {
            total = total.thenCombine(part, Long::sum);
        }
        return total;
    }

    @Override
    public CompletableFuture<String> get(String key) {
        return routed(ClusterSlot.of(key), c -> c.get(key));
    }

    @Override
    public CompletableFuture<String> set(String key, String value) {
        return routed(ClusterSlot.of(key), c -> c.set(key, value));
    }

    @Override
    public CompletableFuture<String> ping() {
        return anyMaster(RedisCommands::ping);
    }

    private <T> CompletableFuture<T> anyMaster(Function<RedisCommands, CompletableFuture<T>> send) {
        if (view.map().masters().isEmpty()) {
            return CompletableFuture.failedFuture(new RedisConnectionException("no master in the known topology", null));
        }
        return send.apply(commandsOf(view.map().masters().iterator().next()));
    }

    private <T> CompletableFuture<T> routed(int slot, Function<RedisCommands, CompletableFuture<T>> send) {
        Routed<T> routed = new Routed<>(slot, send, System.nanoTime() + retryBudgetNanos);
        routed.send(view.map().masterOf(slot), /* asking= */ false);
        return routed;
    }

    /** One routed command: where it was sent, how many redirects it followed, when retries stop. */
    private final class Routed<T> extends CompletableFuture<T> {
        private final int slot;
        private final Function<RedisCommands, CompletableFuture<T>> send;
        private final long retryUntilNanos;
        private int redirects;
        private int pauses;
        /** The node of the last send. */
        private NodeAddress target;

        Routed(int slot, Function<RedisCommands, CompletableFuture<T>> send, long retryUntilNanos) {
            this.slot = slot;
            this.send = send;
            this.retryUntilNanos = retryUntilNanos;
        }

        void send(NodeAddress node, boolean asking) {
            if (node == null) {
                // The first send, or a retry after TRYAGAIN or CLUSTERDOWN, found the slot without a master.
                view.refreshForUnroutedSlot();
                completeExceptionally(new RedisConnectionException("slot " + slot
                        + " has no master in the known topology (" + view.map() + ")", null));
                return;
            }
            target = node;
            RedisCommands commands;
            try {
                commands = commandsOf(node);
            } catch (RuntimeException e) {
                completeExceptionally(e);
                return;
            }
            if (asking) {
                // ASKING and the command go out in this order on the node's one connection.
                commands.execute(Replies.OK, "ASKING");
            }
            send.apply(commands).whenComplete(this::settle);
        }

        private void settle(T value, Throwable failure) {
            if (failure == null) {
                complete(value);
                return;
            }
            Throwable cause = Futures.unwrap(failure);
            if (cause instanceof NotSentException && !view.isClosed() && System.nanoTime() - retryUntilNanos < 0) {
                // Never written: its node left the topology while it waited. Send it to the slot's master now.
                NodeAddress master = view.map().masterOf(slot);
                if (master != null && !master.equals(target)) {
                    send(master, false);
                    return;
                }
            }
            if ((cause instanceof RedisConnectionException || cause instanceof RedisTimeoutException)
                    && target.equals(view.map().masterOf(slot)) && !nodes.isConnected(target)) {
                // The slot's master cannot be reached, perhaps never was by this client: look for its successor.
                // (Not once the map names another: commands still waiting on a dead master fail after it.)
                view.unreachable(target);
            }
            if (cause instanceof RedisServerException server) {
                String code = server.code();
                if ((code.equals("MOVED") || code.equals("ASK")) && redirects++ < MAX_REDIRECTS) {
                    NodeAddress redirect = redirectTarget(server.getMessage());
                    if (redirect != null) {
                        if (code.equals("MOVED")) {
                            view.moved(slot, redirect);
                        }
                        send(redirect, code.equals("ASK"));
                        return;
                    }
                }
                if ((code.equals("TRYAGAIN") || code.equals("CLUSTERDOWN")) && System.nanoTime() - retryUntilNanos < 0) {
                    // A slot in the middle of a migration (a script whose keys are split between the
                    // nodes, or name keys that never exist) answers TRYAGAIN until it is done: start
                    // over from the slot's master after a pause, with a fresh redirect count.
                    redirects = 0;
                    try {
                        timer.newTimeout(t -> send(view.map().masterOf(slot), false),
                                Backoff.COMMAND_RETRY.delayNanos(pauses++), TimeUnit.NANOSECONDS);
                        return;
                    } catch (RuntimeException timerStopped) {
                        cause.addSuppressed(timerStopped);
                    }
                }
            }
            completeExceptionally(cause);
        }
    }

    /** {@code host:port} of a {@code MOVED <slot> <host>:<port>} or {@code ASK ...} message, or null. */
    static NodeAddress redirectTarget(String message) {
        String[] parts = message.trim().split(" ");
        if (parts.length < 3) {
            return null;
        }
        String endpoint = parts[2];
        int colon = endpoint.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = endpoint.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new NodeAddress(host, Integer.parseInt(endpoint.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
