package io.hasp.lock;

/**
 * How one owner's hold on a lock ended, as reported by {@link HaspLock#holdEnd(LockOwner)}.
 */
public enum HoldEnd {

    /** The owner released it: unlock down to zero holds, or {@code forceUnlock} from this client. */
    RELEASED,

    /**
     * The lock is no longer the owner's although it did not release it: a watchdog renewal found
     * another holder or no lock at all, an unlock found it gone, or Redis stayed unreachable
     * until the lease had run out. Whatever the owner still does under the lock is unprotected.
     */
    LOST,

    /** A hold with an explicit lease time ran out without an unlock (noticed by a periodic sweep). */
    EXPIRED,

    /** The client was closed while the owner held the lock; its lease runs out in Redis. */
    CLIENT_CLOSED
}
