package io.hasp.lock.rw;

import io.hasp.lock.HoldEnd;
import java.util.concurrent.CompletableFuture;

/**
 * This client's record of one owner's holds on one read/write lock in one mode: the count it
 * believes Redis has, the lease, whether the watchdog renews it, and the coordination between
 * renewal and unlock.
 *
 * <p>Invariant (the unlock/renewal race): while an unlock is in flight ({@code closing}) no
 * renewal starts, and an unlock is only sent once the renewal in flight (if any) completed, so
 * no renewal reaches Redis after the unlock that ended the hold. Thread-safe: mutable fields are
 * guarded by {@code this}.
 */
final class RwHold {

    final String name;
    final LockMode mode;
    final String owner;
    /** Completes once, when the hold ends. */
    final CompletableFuture<HoldEnd> end = new CompletableFuture<>();

    private int count;                                // guarded by this
    private long leaseMillis;                         // guarded by this
    private boolean watchdog;                         // guarded by this
    private long validUntilNanos;                     // guarded by this
    private boolean closing;                          // guarded by this
    private CompletableFuture<Void> renewalInFlight;  // guarded by this

    RwHold(String name, LockMode mode, String owner) {
        this.name = name;
        this.mode = mode;
        this.owner = owner;
    }

    /**
     * Records an acquisition that brought the count to {@code target}, sent at {@code sentNanos};
     * false (nothing recorded) when this hold has already ended: the caller starts a new one.
     */
    synchronized boolean acquired(int target, long leaseMillis, boolean watchdog, long sentNanos) {
        if (end.isDone()) {
            return false;
        }
        this.count = target;
        this.leaseMillis = Math.max(this.leaseMillis, leaseMillis);
        this.watchdog |= watchdog;
        this.validUntilNanos = Math.max(validUntilNanos, sentNanos + leaseMillis * 1_000_000L);
        return true;
    }

    /** Ends the hold with {@code how}, unless it already ended; ordered with {@link #acquired}. */
    synchronized void end(HoldEnd how) {
        end.complete(how);
    }

    synchronized int count() {
        return count;
    }

    synchronized boolean watchdog() {
        return watchdog;
    }

    /** Whether a hold without watchdog has been out of lease for longer than {@code graceNanos}. */
    synchronized boolean expired(long nowNanos, long graceNanos) {
        return !watchdog && nowNanos - validUntilNanos > graceNanos;
    }

    /** Marks an unlock as started; the returned future completes when it may be sent. */
    synchronized CompletableFuture<Void> beginClosing() {
        closing = true;
        return renewalInFlight == null ? CompletableFuture.completedFuture(null) : renewalInFlight;
    }

    /** The unlock left {@code remaining} holds (or failed: 0): renewal may resume. */
    synchronized void endClosing(int remaining) {
        closing = false;
        if (remaining > 0) {
            count = remaining;
        }
    }

    /** Starts a renewal in {@code flight}; false when the hold must not be renewed now. */
    synchronized boolean beginRenewal(CompletableFuture<Void> flight) {
        if (!watchdog || closing || renewalInFlight != null || end.isDone()) {
            return false;
        }
        renewalInFlight = flight;
        return true;
    }

    /** Ends the renewal in flight; {@code renewed}: Redis confirmed the hold at {@code sentNanos} with {@code lease}. */
    synchronized void endRenewal(boolean renewed, long sentNanos, long leaseMillis) {
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
        return "RwHold[" + name + ", " + mode + ", " + owner + "]";
    }
}
