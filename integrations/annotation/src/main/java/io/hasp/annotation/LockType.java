package io.hasp.annotation;

/** Which hasp lock guards a call. */
public enum LockType {

    /** The reentrant lock ({@code HaspClient.getLock}): one holder at a time. */
    REENTRANT,

    /** The read lock of a read/write lock: shared by readers, excluded by a writer. */
    READ,

    /** The write lock of a read/write lock: excludes readers and other writers. */
    WRITE,

    /**
     * The fair lock ({@code HaspClient.getFairLock}): one holder at a time, granted first come first served
     * (Redisson's {@code getFairLock} line). A caller keeps its place only while an attempt waits: give it a
     * {@link Locked#waitTime()}, since an attempt with none leaves the line at once and a pause between
     * attempts lets later callers in first.
     */
    FAIR
}
