package io.hasp.annotation;

/** Which hasp lock guards a call. */
public enum LockType {

    /** The reentrant lock ({@code HaspClient.getLock}): one holder at a time. */
    REENTRANT,

    /** The read lock of a read/write lock: shared by readers, excluded by a writer. */
    READ,

    /** The write lock of a read/write lock: excludes readers and other writers. */
    WRITE
}
