package io.hasp.lock.rw;

import java.util.List;

/**
 * Names of the Redis keys and channel of one read/write lock, in the layout Redisson 4.x's
 * {@code RReadWriteLock} uses, so that hasp and Redisson clients on one server find each other's
 * locks.
 *
 * <p>Every derived name carries the lock's hash tag: {@code {<name>}} when the name has no
 * {@code '{'} of its own, else the name as given (it already chooses its slot). The hash itself
 * is {@code <name>}, which hashes to the same slot.
 */
final class RwKeys {

    /** Published when the last hold of a lock ends by a read unlock: wake one waiter. */
    static final String UNLOCK_MESSAGE = "0";

    /** Published when a write hold ends (Redisson's read-unlock message): wake all waiters. */
    static final String READ_UNLOCK_MESSAGE = "1";

    private RwKeys() {
    }

    /** The hash tag that every key of lock {@code name} carries: {@code {<name>}} or the name itself. */
    static String tag(String name) {
        return name.indexOf('{') >= 0 ? name : '{' + name + '}';
    }

    /** The channel on which the lock's releases are announced: {@code redisson_rwlock:{<name>}}. */
    static String channel(String name) {
        return prefixed("redisson_rwlock", name);
    }

    /** The prefix of {@code ownerField}'s read timeout keys; hold {@code n} is {@code <prefix>:<n>}. */
    static String timeoutPrefix(String name, String ownerField) {
        return tag(name) + ':' + ownerField + ":rwlock_timeout";
    }

    /** The latch key that records the outcome of unlock request {@code requestId}. */
    static String unlockLatch(String name, String requestId) {
        return prefixed("redisson_unlock_latch", name) + ':' + requestId;
    }

    /**
     * The keys of the line in which processes wait for the write lock (see lock-core's {@code turns.lua}): the
     * lock's hash, the line ({@code hasp_rwlock_line:{<name>}}), what the keys of the places in it start with
     * ({@code hasp_rwlock_line_place:{<name>}}, one key {@code ...:<process>} a process) and the turn
     * ({@code hasp_rwlock_turn:{<name>}}), in that order.
     * hasp's own keys: Redisson neither reads nor writes them.
     */
    static List<String> inLine(String name) {
        return List.of(name, prefixed("hasp_rwlock_line", name), prefixed("hasp_rwlock_line_place", name),
                turn(name));
    }

    /** The turn of the lock's line: {@code hasp_rwlock_turn:{<name>}}. */
    static String turn(String name) {
        return prefixed("hasp_rwlock_turn", name);
    }

    /** The keys of {@code write_acquire.lua}: the hash, the owner's timeout prefix, the line, places and turn. */
    static List<String> writeKeys(String name, String ownerField) {
        List<String> line = inLine(name);
        return List.of(name, timeoutPrefix(name, ownerField), line.get(1), line.get(2), line.get(3));
    }

    /** What the lock's turn channels start with: {@code hasp_rwlock_turn__channel:{<name>}:}. */
    static String turnChannelPrefix(String name) {
        return prefixed("hasp_rwlock_turn__channel", name) + ':';
    }

    /** The hash field of {@code ownerField}'s write holds. */
    static String writeField(String ownerField) {
        return ownerField + ":write";
    }

    private static String prefixed(String prefix, String name) {
        return name.indexOf('{') >= 0 ? prefix + ':' + name : prefix + ":{" + name + '}';
    }
}
