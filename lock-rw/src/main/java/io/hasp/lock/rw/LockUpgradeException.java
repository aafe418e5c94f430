package io.hasp.lock.rw;

/**
 * An owner that holds the read lock of a read/write lock asked for its write lock. That would
 * wait for the owner's own read hold forever, so it fails at once; release the read lock first
 * (the write holder may take the read lock and then release the write lock: a downgrade).
 */
public final class LockUpgradeException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which lock and owner
     */
    public LockUpgradeException(String message) {
        super(message);
    }
}
