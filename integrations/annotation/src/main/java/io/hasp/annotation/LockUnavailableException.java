package io.hasp.annotation;

import java.time.Duration;

/**
 * A locked call did not run because its lock could not be had: every attempt found it held
 * elsewhere (or the waiting was interrupted, then the cause is the {@link InterruptedException}
 * and the thread's interrupt status is set again). Says which lock and what was tried.
 */
public class LockUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final int attempts;
    private final Duration elapsed;

    /**
     * @param lockName the lock's name
     * @param attempts how many attempts were made
     * @param elapsed the time from the first attempt to giving up
     * @param options what was tried
     * @param cause the interruption that ended the waiting, or null
     */
    public LockUnavailableException(String lockName, int attempts, Duration elapsed, LockOptions options,
            Throwable cause) {
        super("lock \"" + lockName + "\" not acquired: " + attempts + (attempts == 1 ? " attempt" : " attempts")
                + " in " + elapsed.toMillis() + " ms" + (cause instanceof InterruptedException ? ", interrupted" : "")
                + " (" + options + ")", cause);
        this.lockName = lockName;
        this.attempts = attempts;
        this.elapsed = elapsed;
    }

    /** @return the lock's name */
    public String lockName() {
        return lockName;
    }

    /** @return how many attempts were made */
    public int attempts() {
        return attempts;
    }

    /** @return the time from the first attempt to giving up */
    public Duration elapsed() {
        return elapsed;
    }
}
