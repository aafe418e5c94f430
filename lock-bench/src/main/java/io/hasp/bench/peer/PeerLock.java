package io.hasp.bench.peer;

/**
 * The three calls every peer lock offers, so one benchmark body measures them all. One object per
 * thread: like a process of a fleet, each holds its own session (database connection or ZooKeeper
 * lock node) and its own owner identity. Not thread-safe.
 */
public interface PeerLock extends AutoCloseable {

    /**
     * Waits until the lock is held by this object (reentrant: a second call adds a hold).
     *
     * @throws Exception when the server fails or the thread is interrupted
     */
    void lock() throws Exception;

    /**
     * Takes the lock only when it is free now.
     *
     * @return true when held
     * @throws Exception when the server fails
     */
    boolean tryLock() throws Exception;

    /**
     * Releases one hold.
     *
     * @throws IllegalMonitorStateException when this object holds nothing
     * @throws Exception when the server fails
     */
    void unlock() throws Exception;

    /** Closes the session (a database connection); what it still holds is released by the server. */
    @Override
    void close() throws Exception;
}
