package io.hasp.internal.lock;

import java.util.List;

/**
 * Names of the Redis keys and channels that belong to one lock, in the layout Redisson 4.x uses,
 * so that hasp and Redisson clients on one server find each other's locks.
 *
 * <p>Every derived name carries the lock's hash tag: {@code {<name>}} when the name has no
 * opening brace of its own, else the name as given (it already chooses its slot).
 */
final class LockKeys {

    /** The message published on {@link #channel} when a lock becomes free: wake one waiter. */
    static final String UNLOCK_MESSAGE = "0";

    /** The message a read/write lock publishes when its write hold ends: wake all waiters. */
    static final String READ_UNLOCK_MESSAGE = "1";

    private LockKeys() {
    }

    /** Slots of the cache of derived names (a power of two). */
    private static final int CACHE_SLOTS = 1024;

    /** The names derived from one lock name. */
    private record Derived(String name, List<String> keys, String channel, String latchPrefix, List<String> inLine,
            String turnChannelPrefix, List<String> inLineWithGrants) {
    }

    /**
     * Derived names of recently used locks, direct-mapped by the name's hash: locking the same names
     * again builds no strings. Racy on purpose: a slot holds an immutable record or null, and a
     * lost update only costs building the names again.
     */
    private static final Derived[] CACHE = new Derived[CACHE_SLOTS];

    private static Derived derived(String name) {
        int h = name.hashCode();
        int slot = (h ^ (h >>> 16)) & (CACHE_SLOTS - 1);
        Derived d = CACHE[slot];
        if (d == null || !d.name.equals(name)) {
            d = new Derived(name, List.of(name), tagged("redisson_lock__channel", name),
                    tagged("redisson_unlock_latch", name) + ':',
                    List.of(name, tagged("hasp_lock_line", name), tagged("hasp_lock_line_place", name),
                            tagged("hasp_lock_turn", name)),
                    tagged("hasp_lock_turn__channel", name) + ':',
                    List.of(name, tagged("hasp_lock_line", name), tagged("hasp_lock_line_place", name),
                            tagged("hasp_lock_turn", name), tagged("hasp_lock_grant", name)));
            CACHE[slot] = d;
        }
        return d;
    }

    /** {@code List.of(name)}: the keys of a script that touches only the lock's hash. */
    static List<String> hashOnly(String name) {
        return derived(name).keys;
    }

    /**
     * The keys of a script that takes turns (see {@code turns.lua}): the lock's hash, its line of waiting processes
     * ({@code hasp_lock_line:{<name>}}), what the keys of their places start with
     * ({@code hasp_lock_line_place:{<name>}}, one key {@code ...:<process>} a process) and the turn
     * ({@code hasp_lock_turn:{<name>}}), in that order.
     */
    static List<String> inLine(String name) {
        return derived(name).inLine;
    }

    /**
     * {@link #inLine}'s keys followed by that of grants in the line (see {@code turns.lua}; a process's heir is the
     * value of its place's key): the attempt the lock was last granted to ({@code hasp_lock_grant:{<name>}}).
     */
    static List<String> inLineWithGrants(String name) {
        return derived(name).inLineWithGrants;
    }

    /** What the turn channels of lock {@code name} start with: {@code hasp_lock_turn__channel:{<name>}:}. */
    static String turnChannelPrefix(String name) {
        return derived(name).turnChannelPrefix;
    }

    /** The channel on which process {@code process} hears that its turn to take lock {@code name} came. */
    static String turnChannel(String name, String process) {
        return turnChannelPrefix(name) + process;
    }

    /** The channel on which unlocks of lock {@code name} are announced. */
    static String channel(String name) {
        return derived(name).channel;
    }

    /** The fenced lock's token counter: {@code redisson_lock_token:{<name>}}. */
    static String tokenCounter(String name) {
        return tagged("redisson_lock_token", name);
    }

    /** The fair lock's queue of waiting owners: {@code redisson_lock_queue:{<name>}}. */
    static String fairQueue(String name) {
        return tagged("redisson_lock_queue", name);
    }

    /** The fair lock's waiters' Redisson deadlines: {@code redisson_lock_timeout:{<name>}}. */
    static String fairDeadlines(String name) {
        return tagged("redisson_lock_timeout", name);
    }

    /** The fair lock's place leases of hasp waiters: {@code hasp_lock_places:{<name>}}. */
    static String fairPlaces(String name) {
        return tagged("hasp_lock_places", name);
    }

    /** The latch key that records the outcome of unlock request {@code requestId}. */
    static String unlockLatch(String name, String requestId) {
        return unlockLatchPrefix(name) + requestId;
    }

    /** What the latch keys of lock {@code name} start with: {@code redisson_unlock_latch:{<name>}:}. */
    static String unlockLatchPrefix(String name) {
        return derived(name).latchPrefix;
    }

    private static String tagged(String prefix, String name) {
        if (name.indexOf('{') >= 0) {
            return prefix + ':' + name;
        }
        return prefix + ":{" + name + '}';
    }
}
