package io.hasp.lock;

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

    /** The channel on which unlocks of lock {@code name} are announced. */
    static String channel(String name) {
        return tagged("redisson_lock__channel", name);
    }

    /** The latch key that records the outcome of unlock request {@code requestId}. */
    static String unlockLatch(String name, String requestId) {
        return tagged("redisson_unlock_latch", name) + ':' + requestId;
    }

    private static String tagged(String prefix, String name) {
        if (name.indexOf('{') >= 0) {
            return prefix + ':' + name;
        }
        return prefix + ":{" + name + '}';
    }
}
