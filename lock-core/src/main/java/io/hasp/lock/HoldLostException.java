package io.hasp.lock;

/**
 * An unlock by an owner whose hold had already ended without an unlock: its lease ran out, or
 * the lock's key was deleted, taken over or lost by the server (a restart without persistence, a
 * failover) before the unlock reached Redis. It is an {@link IllegalMonitorStateException}, as
 * {@link java.util.concurrent.locks.Lock#unlock()} requires for an unlock by a non-holder, so code
 * written for that contract keeps working; catch this subtype to tell "my protection ended while I
 * worked" (whatever was done since is unprotected) apart from "I never held this lock" (a bug in
 * the caller). Redisson throws the same plain {@code IllegalMonitorStateException} for both.
 *
 * <p>{@link #holdEnd()} says how the hold ended, as {@link HaspLock#holdEnd(LockOwner)} reported
 * it: {@link HoldEnd#EXPIRED} for a lease time that ran out, {@link HoldEnd#LOST} otherwise.
 */
public class HoldLostException extends IllegalMonitorStateException {

    private static final long serialVersionUID = 1L;

    /** How the hold ended. */
    private final HoldEnd holdEnd;

    /**
     * Creates the exception.
     *
     * @param message what ended, and why where known
     * @param holdEnd how the hold ended: {@link HoldEnd#LOST} or {@link HoldEnd#EXPIRED}
     */
    public HoldLostException(String message, HoldEnd holdEnd) {
        super(message);
        this.holdEnd = holdEnd;
    }

    /** How the hold ended before the unlock: {@link HoldEnd#LOST} or {@link HoldEnd#EXPIRED}. */
    public HoldEnd holdEnd() {
        return holdEnd;
    }
}
