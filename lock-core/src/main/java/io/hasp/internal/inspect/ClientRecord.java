package io.hasp.internal.inspect;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The record that names a hasp client's process to the inspector ({@code LockInspector.inspect}): a hash at
 * {@code hasp_client:{<client id>}} with the application's name, the host, the process id and the client's start.
 * The client writes it when it starts and again every third of its lease on the client's timer; it expires a lease
 * after the last write, so it is gone within a lease of the client's end however that came (a close deletes it at
 * once; a killed process leaves it to expire). It holds no address or credential. A failed write is logged once and
 * tried again at the next turn: the locks never depend on it. Thread-safe.
 */
public final class ClientRecord {

    /** What the key of every client's record starts with. */
    static final String KEY_PREFIX = "hasp_client:{";

    private static final Logger log = LoggerFactory.getLogger(ClientRecord.class);
    private static final Script WRITE = Script.fromResource(ClientRecord.class, "client_record.lua");

    private final RedisCommands commands;
    private final Timer timer;
    private final List<String> key;
    private final Object[] fields;
    private final long periodMillis;
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile boolean closed;
    private volatile Timeout next;

    private ClientRecord(RedisCommands commands, Timer timer, String clientId, String application, long leaseMillis) {
        this.commands = commands;
        this.timer = timer;
        this.key = List.of(key(clientId));
        this.fields = new Object[] {application, host(), Long.toString(ProcessHandle.current().pid()),
                Long.toString(System.currentTimeMillis()), Long.toString(leaseMillis)};
        this.periodMillis = Math.max(1, leaseMillis / 3);
    }

    /**
     * Writes the record of client {@code clientId} now, and again every third of {@code leaseMillis} until
     * {@link #close()}.
     *
     * @param application the name the record gives the application: the client's name when configured, else the
     *     process's main class or jar
     */
    public static ClientRecord start(RedisCommands commands, Timer timer, String clientId, String application,
            long leaseMillis) {
        ClientRecord record = new ClientRecord(commands, timer, clientId, application, leaseMillis);
        record.write();
        return record;
    }

    /** The key of client {@code clientId}'s record. */
    public static String key(String clientId) {
        return KEY_PREFIX + clientId + '}';
    }

    /** The application's name when the client has none: the main class or jar the JVM was started with, else "java". */
    public static String defaultApplication() {
        String command = System.getProperty("sun.java.command", "").trim();
        if (command.isEmpty()) {
            return "java";
        }
        String main = command.split("\\s+", 2)[0];
        int slash = Math.max(main.lastIndexOf('/'), main.lastIndexOf('\\'));
        return main.substring(slash + 1);
    }

    /** Stops writing and deletes the record; the future completes when the server answered. */
    public CompletableFuture<Long> close() {
        closed = true;
        Timeout scheduled = next;
        if (scheduled != null) {
            scheduled.cancel();
        }
        return commands.del(key.get(0));
    }

    private void write() {
        if (closed) {
            return;
        }
        commands.evalsha(WRITE, Replies.VOID, key, fields).whenComplete((ok, failure) -> {
            if (failure != null && !closed && warned.compareAndSet(false, true)) {
                log.warn("hasp: could not write this client's record {} (inspect will not name its process): {}",
                        key.get(0), failure.toString());
            }
            schedule();
        });
    }

    private void schedule() {
        if (closed) {
            return;
        }
        try {
            next = timer.newTimeout(t -> write(), periodMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException stopped) {
            // The client is closing: its timer takes nothing more.
        }
    }

    /** This machine's name: the environment's, else the resolver's, else "unknown". */
    private static String host() {
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isEmpty()) {
            name = System.getenv("COMPUTERNAME");
        }
        if (name != null && !name.isEmpty()) {
            return name;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
