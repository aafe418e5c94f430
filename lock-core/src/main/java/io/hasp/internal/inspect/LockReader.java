package io.hasp.internal.inspect;

import io.hasp.RedisCommands;
import io.hasp.RedisProtocolException;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.inspect.ClientProcess;
import io.hasp.inspect.LockHolder;
import io.hasp.inspect.LockInfo;
import io.hasp.inspect.QueuedWaiter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Reads what Redis holds for one name in one script ({@code inspect.lua}, which writes nothing) and makes a
 * {@link LockInfo} of it. The keys are those of Redisson 4.x's layout and hasp's own beside it (docs/internals.md,
 * "Redis data layout"); all carry the name's hash tag, so on a cluster one node answers.
 */
public final class LockReader {

    private static final Script INSPECT = Script.fromResource(LockReader.class, "inspect.lua");
    private static final String LOCK_CHANNEL = "redisson_lock__channel";
    private static final int CHANNELS = 4;

    private LockReader() {
    }

    /**
     * A future of what {@code commands}' server holds for {@code name}, with the processes of the hasp clients it
     * names: one script, then one read of each such client's record (in parallel; on a cluster, on its own slot).
     */
    public static CompletableFuture<LockInfo> read(RedisCommands commands, String name) {
        return commands.evalsha(INSPECT, Replies.STRING_LIST, keys(name), args(name))
                .thenApply(reply -> parse(name, reply))
                .thenCompose(info -> withProcesses(commands, info));
    }

    private static CompletableFuture<LockInfo> withProcesses(RedisCommands commands, LockInfo info) {
        Set<String> clients = new LinkedHashSet<>();
        info.holders().stream().filter(LockHolder::isHasp).forEach(h -> clients.add(h.clientId()));
        info.queue().stream().filter(QueuedWaiter::isHasp).forEach(w -> clients.add(w.clientId()));
        clients.addAll(info.waitingProcesses());
        if (info.turn() != null) {
            clients.add(info.turn());
        }
        if (clients.isEmpty()) {
            return CompletableFuture.completedFuture(info);
        }
        Map<String, CompletableFuture<List<String>>> reads = new LinkedHashMap<>();
        for (String client : clients) {
            reads.put(client, commands.execute(Replies.STRING_LIST, "HGETALL", ClientRecord.key(client)));
        }
        return CompletableFuture.allOf(reads.values().toArray(new CompletableFuture<?>[0])).thenApply(done -> {
            Map<String, ClientProcess> processes = new HashMap<>();
            reads.forEach((client, read) -> {
                ClientProcess process = process(client, read.join());
                if (process != null) {
                    processes.put(client, process);
                }
            });
            return new LockInfo(info.name(), info.kind(), info.readAt(), info.leaseLeft(), info.holders(),
                    info.fencingToken(), info.queue(), info.waitingProcesses(), info.turn(), info.listeners(),
                    info.value(), info.leasedPermits(), processes);
        });
    }

    /** The process a record's fields name, or null when there is none or it is not whole. */
    static ClientProcess process(String client, List<String> record) {
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < record.size(); i += 2) {
            fields.put(record.get(i), record.get(i + 1));
        }
        String application = fields.get("application");
        String host = fields.get("host");
        String pid = fields.get("pid");
        String started = fields.get("started");
        if (application == null || host == null || !isNumber(pid == null ? "" : pid)
                || !isNumber(started == null ? "" : started)) {
            return null;
        }
        return new ClientProcess(client, application, host, Long.parseLong(pid), Instant.ofEpochMilli(Long.parseLong(started)));
    }

    private static List<String> keys(String name) {
        return List.of(name, braced("redisson_lock_token", name), braced("redisson_lock_queue", name),
                braced("redisson_lock_timeout", name), braced("hasp_lock_places", name), braced("hasp_lock_line", name),
                braced("hasp_lock_turn", name), tagged("hasp_rwlock_line", name), tagged("hasp_rwlock_turn", name),
                tag(name) + ":timeout");
    }

    /**
     * The read/write lock's hash tag, the two lines' turn channel prefixes, then the channels counted: the lock's,
     * the read/write lock's, the semaphore's, the latch's.
     */
    private static Object[] args(String name) {
        return new Object[] {tag(name), braced("hasp_lock_turn__channel", name) + ':',
                tagged("hasp_rwlock_turn__channel", name) + ':', braced(LOCK_CHANNEL, name), tagged("redisson_rwlock", name),
                tagged("redisson_sc", name), "redisson_countdownlatch__channel__{" + name + '}'};
    }

    /** {@code <prefix>:{<name>}}, as the locks' keys are named. */
    private static String braced(String prefix, String name) {
        return prefix + ":{" + name + '}';
    }

    /** {@code <prefix>:{<name>}}, or {@code <prefix>:<name>} when the name has a brace: the read/write lock's and synchronizers' rule. */
    private static String tagged(String prefix, String name) {
        return prefix + ':' + tag(name);
    }

    private static String tag(String name) {
        return name.indexOf('{') >= 0 ? name : '{' + name + '}';
    }

    /** The reading of {@code reply}, the script's flat array (inspect.lua says its order). */
    static LockInfo parse(String name, List<String> reply) {
        try {
            return parse(name, reply.iterator());
        } catch (RuntimeException e) {
            throw new RedisProtocolException("inspect " + name + ": unexpected reply " + reply, e);
        }
    }

    private static LockInfo parse(String name, Iterator<String> in) {
        long now = Long.parseLong(in.next());
        String type = in.next();
        Duration lease = ttl(Long.parseLong(in.next()));
        Map<String, String> hash = new HashMap<>();
        for (int n = count(in); n > 0; n--) {
            hash.put(in.next(), in.next());
        }
        String text = in.next();
        Long value = isNumber(text) ? number(text) : null;
        Long token = number(in.next());
        List<QueuedWaiter> queue = new ArrayList<>();
        for (int n = count(in); n > 0; n--) {
            String owner = in.next();
            Long deadline = number(in.next());
            Long placeEnd = number(in.next());
            queue.add(new QueuedWaiter(owner, clientId(owner), holderId(owner),
                    deadline == null ? null : Instant.ofEpochMilli(deadline),
                    placeEnd == null ? null : Duration.ofMillis(Math.max(0, placeEnd - now))));
        }
        List<String> line = new ArrayList<>();
        String turn = null;
        int[] lineListeners = new int[2];
        for (int lines = 0; lines < 2; lines++) {
            for (int n = count(in); n > 0; n--) {
                line.add(in.next());
            }
            String lineTurn = in.next();
            if (!lineTurn.isEmpty()) {
                turn = lineTurn;
            }
            lineListeners[lines] = count(in);
        }
        Map<String, Duration> readLeases = new HashMap<>();
        for (int n = count(in); n > 0; n--) {
            readLeases.put(in.next(), ttl(Long.parseLong(in.next())));
        }
        int leased = count(in);
        int[] listeners = new int[CHANNELS];
        for (int i = 0; i < CHANNELS; i++) {
            listeners[i] = count(in);
        }
        LockInfo.Kind kind = kind(type, hash, token, queue, leased);
        if (kind == LockInfo.Kind.NUMBER && value == null || kind != LockInfo.Kind.READ_WRITE && !countsOnly(hash)) {
            kind = LockInfo.Kind.OTHER;   // a key of the application's own under the name
        }
        List<LockHolder> holders = holders(kind, hash, lease, readLeases);
        int listening = switch (kind) {
            case READ_WRITE -> listeners[1] + lineListeners[1];
            case NUMBER -> listeners[2] + listeners[3];
            case PERMIT_EXPIRABLE_SEMAPHORE -> listeners[2];
            default -> listeners[0] + lineListeners[0];
        };
        return new LockInfo(name, kind, Instant.ofEpochMilli(now), lease, holders, token, queue, line, turn, listening,
                value, leased, Map.of());
    }

    private static LockInfo.Kind kind(String type, Map<String, String> hash, Long token, List<QueuedWaiter> queue,
            int leased) {
        return switch (type) {
            case "hash" -> hash.containsKey("mode") ? LockInfo.Kind.READ_WRITE
                    : token != null ? LockInfo.Kind.FENCED
                    : queue.isEmpty() ? LockInfo.Kind.REENTRANT : LockInfo.Kind.FAIR;
            case "string" -> leased > 0 ? LockInfo.Kind.PERMIT_EXPIRABLE_SEMAPHORE : LockInfo.Kind.NUMBER;
            case "none" -> !queue.isEmpty() ? LockInfo.Kind.FAIR
                    : token != null ? LockInfo.Kind.FENCED
                    : leased > 0 ? LockInfo.Kind.PERMIT_EXPIRABLE_SEMAPHORE : LockInfo.Kind.NONE;
            default -> LockInfo.Kind.OTHER;
        };
    }

    private static List<LockHolder> holders(LockInfo.Kind kind, Map<String, String> hash, Duration lease,
            Map<String, Duration> readLeases) {
        List<LockHolder> holders = new ArrayList<>();
        if (kind == LockInfo.Kind.READ_WRITE) {
            for (Map.Entry<String, String> field : hash.entrySet()) {
                String owner = field.getKey();
                if (owner.equals("mode")) {
                    continue;
                }
                int count = Integer.parseInt(field.getValue());
                if (owner.endsWith(":write")) {
                    owner = owner.substring(0, owner.length() - ":write".length());
                    holders.add(new LockHolder(owner, clientId(owner), holderId(owner), count, LockHolder.Mode.WRITE, lease));
                } else {
                    holders.add(new LockHolder(owner, clientId(owner), holderId(owner), count, LockHolder.Mode.READ,
                            readLeases.getOrDefault(owner, lease)));
                }
            }
        } else if (kind == LockInfo.Kind.REENTRANT || kind == LockInfo.Kind.FENCED || kind == LockInfo.Kind.FAIR) {
            for (Map.Entry<String, String> field : hash.entrySet()) {
                String owner = field.getKey();
                holders.add(new LockHolder(owner, clientId(owner), holderId(owner), Integer.parseInt(field.getValue()),
                        LockHolder.Mode.EXCLUSIVE, lease));
            }
        }
        return holders;
    }

    /** Whether every value of {@code hash} is a hold count, as a lock's are. */
    private static boolean countsOnly(Map<String, String> hash) {
        for (String count : hash.values()) {
            if (!isNumber(count)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isNumber(String text) {
        if (text.isEmpty() || text.length() > 19) {
            return false;
        }
        for (int i = text.charAt(0) == '-' && text.length() > 1 ? 1 : 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** A count in the reply. */
    private static int count(Iterator<String> in) {
        return Integer.parseInt(in.next());
    }

    /** A number in the reply, or null for "" (nothing there). */
    private static Long number(String text) {
        if (text.isEmpty()) {
            return null;
        }
        return isNumber(text) ? Long.parseLong(text) : (long) Double.parseDouble(text);   // a score may read 1.7e+12
    }

    /** A PTTL as a duration: null for no expiry (-1) or no key (-2). */
    private static Duration ttl(long millis) {
        return millis < 0 ? null : Duration.ofMillis(millis);
    }

    /** The client id of owner field {@code "<client id>:<holder id>"}: before the last colon, or the whole field. */
    private static String clientId(String owner) {
        int colon = owner.lastIndexOf(':');
        return colon < 0 || holderId(owner) == null ? owner : owner.substring(0, colon);
    }

    /** The holder id of an owner field, or null when it does not end in one. */
    private static Long holderId(String owner) {
        int colon = owner.lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        try {
            return Long.parseLong(owner.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
