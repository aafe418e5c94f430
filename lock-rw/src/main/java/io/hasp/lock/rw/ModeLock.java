package io.hasp.lock.rw;

import io.hasp.lock.HaspLock;

/**
 * One mode, read or write, of a {@link HaspReadWriteLock}, with the whole {@link HaspLock} API:
 * blocking, interruptible and timed acquisition, async twins with an explicit
 * {@link io.hasp.lock.LockOwner}, unlock, {@code forceUnlock} (frees the lock if it is held in this
 * mode), {@code isLocked} (whether anyone holds this mode), {@code getHoldCount},
 * {@code remainTimeToLive} (of the whole lock) and {@code holdEnd}.
 *
 * <p>Asking for the write lock while holding the read lock (an upgrade) fails at once with
 * {@link LockUpgradeException}: the blocking methods throw it, the futures fail with it. The
 * write holder may take the read lock (a downgrade). Thread-safe; cheap view.
 */
public interface ModeLock extends HaspLock {

    /** Which mode this is. */
    LockMode mode();
}
