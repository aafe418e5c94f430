package io.hasp.internal.topology;

import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.Replies;
import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.connection.ArgsCommand;
import io.hasp.internal.connection.ConnectionPool;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.connection.EvalShaCommand;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.connection.ReplicaAckGate;
import io.hasp.internal.connection.StringArgsCommand;
import io.hasp.resp.CommandName;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@link RedisCommands} of a single-server client: each call becomes one command on the next pooled
 * connection. The returned future is the command itself (no extra allocation). A script sent by a
 * thread inside a blocking lock call (as {@link io.hasp.internal.connection.CallerAdmission} tells) runs on a {@link DirectConnections direct
 * connection} when one is at hand: the future is then complete on return. When replicas must confirm
 * scripts ({@link ReplicaAcks}), each script is followed by a {@code WAIT} on its connection
 * ({@link ReplicaAckGate}) and its future completes once they did. Thread-safe.
 */
public final class DefaultRedisCommands implements RedisCommands {

    private static final CommandName GET = CommandName.of("GET");
    private static final CommandName SET = CommandName.of("SET");
    private static final CommandName DEL = CommandName.of("DEL");
    private static final CommandName PTTL = CommandName.of("PTTL");
    private static final CommandName HGET = CommandName.of("HGET");
    private static final CommandName HEXISTS = CommandName.of("HEXISTS");
    private static final CommandName HLEN = CommandName.of("HLEN");
    private static final CommandName PUBLISH = CommandName.of("PUBLISH");
    private static final CommandName SCRIPT = CommandName.of("SCRIPT");
    private static final CommandName PING = CommandName.of("PING");

    private final ConnectionPool pool;
    private final DirectConnections direct;
    /** What must confirm each script; NONE: nothing. */
    private final ReplicaAcks acks;
    /** The WAITs of each pooled connection, shared by every command set of the pool; null when not confirming. */
    private final Map<RedisConnection, ReplicaAckGate> gates;
    private final ConcurrentMap<String, CommandName> names = new ConcurrentHashMap<>();

    /**
     * @param pool the connections commands are sent on
     * @param direct the direct connections of blocking lock calls, or {@code null} for none
     */
    public DefaultRedisCommands(ConnectionPool pool, DirectConnections direct) {
        this(pool, direct, ReplicaAcks.NONE, null);
    }

    /**
     * @param pool the connections commands are sent on
     * @param direct the direct connections of blocking lock calls, or {@code null} for none; not used
     *     when {@code acks} is enabled (a script's {@code WAIT} goes on the script's connection)
     * @param acks how many replicas must confirm each script ({@link ReplicaAckGate}), or none
     * @param gates the {@code WAIT}s of each of the pool's connections ({@link #gates}), shared by the command
     *     sets of one pool so that a connection has one {@code WAIT} in flight; null when {@code acks} is none
     */
    public DefaultRedisCommands(ConnectionPool pool, DirectConnections direct, ReplicaAcks acks,
            Map<RedisConnection, ReplicaAckGate> gates) {
        this.pool = pool;
        this.acks = acks;
        this.direct = acks.enabled() ? null : direct;
        this.gates = acks.enabled() ? gates : null;
    }

    /** A gate for each of {@code pool}'s connections, for the command sets that confirm scripts. */
    public static Map<RedisConnection, ReplicaAckGate> gates(ConnectionPool pool) {
        Map<RedisConnection, ReplicaAckGate> each = new IdentityHashMap<>();
        for (RedisConnection connection : pool.connections()) {
            each.put(connection, new ReplicaAckGate(connection));
        }
        return each;
    }

    @Override
    public <T> CompletableFuture<T> evalsha(Script script, Reply<T> reply, List<String> keys, Object... args) {
        EvalShaCommand<T> command = new EvalShaCommand<>(script, reply, keys, args);
        if (gates != null) {
            return gates.get(pool.next()).dispatch(command, acks);
        }
        if (direct != null && direct.tryCall(command)) {
            return command;
        }
        return pool.next().dispatch(command);
    }

    @Override
    public <T> CompletableFuture<T> execute(Reply<T> reply, String command, Object... args) {
        if (command == null || command.isEmpty() || command.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("command: '" + command
                    + "' (expected: one word, e.g. \"SCRIPT\" with \"LOAD\" as the first argument)");
        }
        CommandName name = names.computeIfAbsent(command, CommandName::of);
        return send(reply, name, args);
    }

    @Override
    public CompletableFuture<String> scriptLoad(Script script) {
        if (script == null) {
            throw new IllegalArgumentException("script: null (expected: a Script)");
        }
        return send2(Replies.STRING, SCRIPT, "LOAD", script.text());
    }

    @Override
    public CompletableFuture<Long> publish(String channel, String message) {
        return send2(Replies.LONG, PUBLISH, channel, message);
    }

    @Override
    public CompletableFuture<Long> pttl(String key) {
        return send1(Replies.LONG, PTTL, key);
    }

    @Override
    public CompletableFuture<String> hget(String key, String field) {
        return send2(Replies.STRING, HGET, key, field);
    }

    @Override
    public CompletableFuture<Boolean> hexists(String key, String field) {
        return send2(Replies.BOOLEAN, HEXISTS, key, field);
    }

    @Override
    public CompletableFuture<Long> hlen(String key) {
        return send1(Replies.LONG, HLEN, key);
    }

    @Override
    public CompletableFuture<Long> del(String... keys) {
        if (keys == null || keys.length == 0) {
            throw new IllegalArgumentException("keys: none (expected: at least one key)");
        }
        return send(Replies.LONG, DEL, (Object[]) keys);
    }

    @Override
    public CompletableFuture<String> get(String key) {
        return send1(Replies.STRING, GET, key);
    }

    @Override
    public CompletableFuture<String> set(String key, String value) {
        return send2(Replies.OK, SET, key, value);
    }

    @Override
    public CompletableFuture<String> ping() {
        return pool.next().dispatch(new StringArgsCommand<>(Replies.OK, PING));
    }

    private <T> CompletableFuture<T> send(Reply<T> reply, CommandName name, Object... args) {
        return pool.next().dispatch(new ArgsCommand<T>(reply, name, args));
    }

    // The fixed-arity commands go without a varargs array.

    private <T> CompletableFuture<T> send1(Reply<T> reply, CommandName name, String first) {
        return pool.next().dispatch(new StringArgsCommand<T>(reply, name, first));
    }

    private <T> CompletableFuture<T> send2(Reply<T> reply, CommandName name, String first, String second) {
        return pool.next().dispatch(new StringArgsCommand<T>(reply, name, first, second));
    }
}
