package io.hasp.lock.rw;

/** The two modes of a {@link HaspReadWriteLock}: shared reading and exclusive writing. */
public enum LockMode {

    /** Shared: any number of read holders together, no writer (except a read holder's own write hold). */
    READ,

    /** Exclusive: one write holder (which may also take read holds: downgrade), nobody else. */
    WRITE
}
