package io.hasp.internal.lock;

import io.hasp.lock.LockOwner;

/**
 * A parked waiter as the wait queue and a release of this client see it: which hold it waits for, and
 * how it learns the end of a hand-over a release tried for it ({@link HandOver}). {@link Acquisition} is
 * the one subclass; the queue ({@link WaitChannel}, {@link Wake}) knows nothing more of it.
 */
abstract class Successor {

    /** The kind of lock it waits for. */
    final LockKind kind;
    /** The name of the lock it waits for. */
    final String name;
    /** The owner it acquires for. */
    final LockOwner owner;
    /** The lease a hold handed to it gets, in milliseconds. */
    final long leaseMillis;
    /** What the client's listener returned at its start (a span, say), or null: set before it starts, by {@link LockEvents}. */
    volatile Object trace;
    /** How many acquire scripts it sent, counted only when a listener hears them ({@link LockEvents}). */
    volatile int attempts;

    Successor(LockKind kind, String name, LockOwner owner, long leaseMillis) {
        this.kind = kind;
        this.name = name;
        this.owner = owner;
        this.leaseMillis = leaseMillis;
    }

    /** The kind of lock it waits for. */
    final LockKind kind() {
        return kind;
    }

    /** The name of the lock it waits for. */
    final String name() {
        return name;
    }

    /** The owner it acquires for. */
    final LockOwner owner() {
        return owner;
    }

    /** The lease a hold handed to it gets, in milliseconds (the watchdog's when renewed). */
    final long leaseMillis() {
        return leaseMillis;
    }

    /**
     * A release of this client that claimed it reports how the hand-over ended: {@code handedOver} when
     * the lock went to it in the release script sent (first) at {@code sentNanos}; otherwise
     * {@code error} when that is unknown (the release could not be confirmed), or neither when the
     * release did not hand over (then it looks again).
     */
    abstract void handOverEnded(boolean handedOver, Throwable error, long sentNanos);

    /**
     * A release of another process granted it the lock while it was parked, and its process claimed its wake for
     * that ({@link WaitChannel#claimGranted}): it holds the lock, granted after {@code namedNanos}, when its owner was
     * named heir.
     */
    final void granted(long namedNanos) {
        handOverEnded(true, null, namedNanos);
    }

    @Override
    public String toString() {
        return "acquisition of " + kind + " lock " + name + " for " + owner;
    }
}
