package io.hasp.lock.rw;

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

    /** The hash field of {@code ownerField}'s write holds. */
    static String writeField(String ownerField) {
        return ownerField + ":write";
    }

    private static String prefixed(String prefix, String name) {
        return name.indexOf('{') >= 0 ? prefix + ':' + name : prefix + ":{" + name + '}';
    }
}
