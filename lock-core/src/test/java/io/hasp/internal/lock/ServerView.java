package io.hasp.internal.lock;

import io.hasp.Script;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the real test server shows, read and written with raw commands over a {@link RedisProbe}
 * (no hasp code involved): lock hashes, subscribers, command counts, and every script call the
 * server executed with its keys and arguments, from a slow log that records every command
 * ({@code slowlog-log-slower-than 0}). The lock's scripts are loaded up front, so that each
 * EVALSHA the server logs is one that ran (no NOSCRIPT round). Not thread-safe: one per test.
 */
final class ServerView implements AutoCloseable {

    /**
     * One script call as the server executed it, in execution order ({@code id} grows); of a call
     * with more than 29 keys and arguments only the first ones are kept.
     */
    record ScriptCall(long id, List<String> keys, List<String> argv) {
    }

    private final RedisProbe probe;

    ServerView(RedisServer server) {
        this.probe = RedisProbe.connect(server.port());
        call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        call("CONFIG", "SET", "slowlog-max-len", "100000");
        for (Script script : List.of(AcquireScript.SCRIPT, UnlockScript.SCRIPT, RenewScript.SCRIPT,
                RollbackScript.SCRIPT, ForceUnlockScript.SCRIPT, PassTurnScript.SCRIPT)) {
            call("SCRIPT", "LOAD", script.text());
        }
        call("FLUSHALL");
        call("SLOWLOG", "RESET");
    }

    /** Sends one raw command; fails on an error reply. */
    Object call(String... command) {
        Object reply = probe.call(command);
        if (reply instanceof RedisProbe.Error error) {
            throw new AssertionError(String.join(" ", command) + ": " + error.message());
        }
        return reply;
    }

    /** Another client takes lock {@code name} for {@code ttlMillis}; nothing is published, ever. */
    void holdAs(String name, String field, long ttlMillis) {
        call("HSET", name, field, "1");
        call("PEXPIRE", name, Long.toString(ttlMillis));
    }

    /** The hold count of {@code field} on lock {@code name}, or null. */
    Long count(String name, String field) {
        Object value = call("HGET", name, field);
        return value == null ? null : Long.parseLong((String) value);
    }

    boolean exists(String key) {
        return (Long) call("EXISTS", key) == 1;
    }

    long pttl(String key) {
        return (Long) call("PTTL", key);
    }

    /** Deletes a key without publishing anything. */
    void delete(String key) {
        call("DEL", key);
    }

    void publish(String channel, String message) {
        call("PUBLISH", channel, message);
    }

    /** Connections subscribed to {@code channel}. */
    long subscribers(String channel) {
        return (Long) ((List<?>) call("PUBSUB", "NUMSUB", channel)).get(1);
    }

    /** Calls of {@code command} (lower case) the server executed so far, from INFO commandstats. */
    long commandCalls(String command) {
        return probe.commandCalls(command);
    }

    /** Every call of {@code script} the server executed since this view started, oldest first. */
    List<ScriptCall> scriptCalls(Script script) {
        List<ScriptCall> calls = new ArrayList<>();
        for (List<?> entry : slowLog()) {
            List<?> args = (List<?>) entry.get(3);
            if (args.size() >= 3 && "EVALSHA".equalsIgnoreCase((String) args.get(0))
                    && script.sha1().equalsIgnoreCase((String) args.get(1))) {
                int numKeys = Integer.parseInt((String) args.get(2));
                List<String> strings = args.stream().map(String.class::cast).toList();
                // The slow log keeps at most 32 arguments: long calls come truncated.
                int keysEnd = Math.min(3 + numKeys, strings.size());
                calls.add(new ScriptCall((Long) entry.get(0), strings.subList(3, keysEnd),
                        strings.subList(keysEnd, strings.size())));
            }
        }
        return calls;
    }

    /** The calls of {@code script} whose keys include {@code key}, oldest first. */
    List<ScriptCall> scriptCalls(Script script, String key) {
        return scriptCalls(script).stream().filter(c -> c.keys().contains(key)).toList();
    }

    /** Every command the server executed for the connection named {@code clientName}, oldest first. */
    List<String> commandsOf(String clientName) {
        List<String> commands = new ArrayList<>();
        for (List<?> entry : slowLog()) {
            if (entry.size() > 5 && clientName.equals(entry.get(5))) {
                commands.add((String) ((List<?>) entry.get(3)).get(0));
            }
        }
        return commands;
    }

    private List<List<?>> slowLog() {
        List<List<?>> entries = new ArrayList<>();
        for (Object entry : (List<?>) call("SLOWLOG", "GET", "-1")) {
            entries.add((List<?>) entry);
        }
        Collections.reverse(entries);
        return entries;
    }

    /** Waits until {@code condition} holds, polling; fails naming {@code what} at the deadline. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object pause = new Object();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            synchronized (pause) {
                try {
                    pause.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted waiting for: " + what, e);
                }
            }
        }
    }

    @Override
    public void close() {
        probe.close();
    }
}
