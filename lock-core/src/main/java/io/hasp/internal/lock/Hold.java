package io.hasp.internal.lock;

import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import java.util.concurrent.CompletableFuture;

/**
 * This client's record of one owner's hold on one lock of one {@link LockKind}: the hold count it believes Redis has,
 * the lease, whether the watchdog renews it, and the coordination between renewal and unlock.
 *
 * <p>Invariant (the unlock/renewal race): while an unlock is in flight ({@code closing}) no
 * renewal starts, and an unlock is only sent once the renewal in flight (if any) has completed,
 * so a renewal can never reach Redis after the unlock that freed the lock. Thread-safe: every
 * mutable field is guarded by {@code this}.
 */
final class Hold {

    final LockKind kind;
    final String name;
    final LockOwner owner;
    /** The owner's hold identity in its kind: {@code kind.holdField(owner)}. */
    final String field;
    /** This hold's key in the registry of holds. */
    final HoldKey key;
    /** Completes once, when the hold ends; see {@link HoldEnd}. */
    final CompletableFuture<HoldEnd> end = new CompletableFuture<>();

    private int count;                                // guarded by this
    private long leaseMillis;                         // guarded by this
    private boolean watchdog;                         // guarded by this
    private long validUntilNanos;                     // guarded by this
    private boolean closing;                          // guarded by this
    private CompletableFuture<Void> renewalInFlight;  // guarded by this
    private boolean ended;                            // guarded by this
    private long token;                               // guarded by this; 0: none
    private long beganNanos;                          // guarded by this; the send of the grant that began it
    private boolean began;                            // guarded by this

    Hold(HoldKey key, LockOwner owner) {
        this.kind = key.kind();
        this.name = key.name();
        this.owner = owner;
        this.field = key.field();
        this.key = key;
    }

    /**
     * Records an acquisition that brought the count to {@code target}, sent at {@code sentNanos};
     * false when this hold has already ended (the caller records it in a new hold).
     */
    synchronized boolean acquired(int target, long leaseMillis, boolean watchdog, long sentNanos) {
        if (ended) {
            return false;
        }
        if (!began) {
            began = true;
            beganNanos = sentNanos;
        }
        this.count = target;
        this.leaseMillis = leaseMillis;
        this.watchdog |= watchdog;
        this.validUntilNanos = sentNanos + leaseMillis * 1_000_000L;
        return true;
    }

    /** When the acquisition that began this hold was sent (the client's nanosecond clock). */
    synchronized long beganNanos() {
        return beganNanos;
    }

    /** An extension confirmed by Redis: the lease is {@code leaseMillis} from {@code sentNanos} on. */
    synchronized void extended(long leaseMillis, long sentNanos) {
        if (!ended) {
            this.leaseMillis = leaseMillis;
            this.validUntilNanos = sentNanos + leaseMillis * 1_000_000L;
        }
    }

    /** Ends the hold; true for the one caller that ended it. */
    synchronized boolean markEnded() {
        if (ended) {
            return false;
        }
        ended = true;
        return true;
    }

    /** The fencing token the latest acquisition of this hold took ({@code token} > 0), for a fenced kind. */
    synchronized void token(long token) {
        this.token = token;
    }

    /** The latest acquisition's fencing token, or 0 when the kind issues none. */
    synchronized long token() {
        return token;
    }

    synchronized int count() {
        return count;
    }

    synchronized long leaseMillis() {
        return leaseMillis;
    }

    synchronized boolean watchdog() {
        return watchdog;
    }

    /** Until when the lease lasts unless renewed, as this client reckons it (its nanosecond clock). */
    synchronized long validUntilNanos() {
        return validUntilNanos;
    }

    /** Whether a hold without watchdog has been out of lease for longer than {@code graceNanos}. */
    synchronized boolean expired(long nowNanos, long graceNanos) {
        return !watchdog && nowNanos - validUntilNanos > graceNanos;
    }

    /**
     * Marks an unlock as started; returns the renewal in flight, which must complete before the
     * unlock may be sent, or null when it may be sent at once.
     */
    synchronized CompletableFuture<Void> beginClosing() {
        closing = true;
        return renewalInFlight;
    }

    /** The unlock left {@code remaining} holds behind: renewal may resume. */
    synchronized void endClosing(int remaining) {
        closing = false;
        if (remaining > 0) {
            count = remaining;
        }
    }

    /** Starts a renewal of this hold in {@code flight}; false when it must not be renewed now. */
    synchronized boolean beginRenewal(CompletableFuture<Void> flight) {
        if (!watchdog || closing || renewalInFlight != null || ended) {
            return false;
        }
        renewalInFlight = flight;
        return true;
    }

    /** Ends the renewal in flight; {@code renewed}: Redis confirmed the hold at {@code sentNanos}. */
    synchronized void endRenewal(boolean renewed, long sentNanos) {
        renewalInFlight = null;
        if (renewed) {
            validUntilNanos = Math.max(validUntilNanos, sentNanos + leaseMillis * 1_000_000L);
        }
    }

    /** Whether the lease has run out by {@code nowNanos} without a confirmed renewal. */
    synchronized boolean leaseRunOut(long nowNanos) {
        return nowNanos - validUntilNanos >= 0;
    }

    @Override
    public String toString() {
        return "Hold[" + kind + ' ' + name + ", " + field + "]";
    }
}
