package io.hasp.annotation;

/** What a call does when its lock could not be had within its attempts. */
public enum WhenUnavailable {

    /** Throw {@link LockUnavailableException}, naming the lock and what was tried. The default. */
    THROW,

    /**
     * Skip the call: the body does not run and the caller gets {@code null} (for a method that
     * returns a primitive, its zero: {@code 0}, {@code false}). For work that another instance
     * is doing anyway, such as a scheduled job.
     */
    SKIP
}
