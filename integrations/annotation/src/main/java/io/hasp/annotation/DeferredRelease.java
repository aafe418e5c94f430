package io.hasp.annotation;

/**
 * Decides whether a lock is given back when its locked call ends, or later. A framework that
 * runs the call inside a transaction defers the release until the transaction has committed or
 * rolled back, so that the next holder sees the committed state (the Spring integration does).
 */
@FunctionalInterface
public interface DeferredRelease {

    /** Never defers: the lock is given back as the call ends. */
    DeferredRelease NEVER = release -> false;

    /**
     * Takes {@code release} to run later, or declines.
     *
     * @param release gives the lock back; safe to run on any thread, once
     * @return true when {@code release} will run later (its failures are then logged, since the
     *     call has returned); false to have the lock given back now
     */
    boolean defer(Runnable release);
}
