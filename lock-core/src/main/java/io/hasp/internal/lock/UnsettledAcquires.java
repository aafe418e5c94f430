package io.hasp.internal.lock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds of this client whose last acquire has an unknown outcome in Redis (its reply was lost, and
 * a retry or a rollback is on its way): a new acquisition of the same hold starts only once that is
 * settled. Otherwise the rollback of an owner's abandoned acquire could reach Redis after the same
 * owner's next acquire (sent on another pooled connection, or a blocking call's direct one, after a
 * reconnect or a master switch) and undo that new grant while the owner believes it holds the lock.
 * The same holds for an unlock: it waits for that rollback too, or it could give back a level the rollback
 * then finds missing, and the hold counts of client and Redis would part. Thread-safe; costs one emptiness
 * check per acquisition and unlock while nothing is unsettled.
 */
final class UnsettledAcquires {

    private final ConcurrentHashMap<HoldKey, CompletableFuture<Void>> unsettled = new ConcurrentHashMap<>();

    /** An acquire of {@code key} may have taken effect unseen. */
    void mark(HoldKey key) {
        unsettled.computeIfAbsent(key, k -> new CompletableFuture<>());
    }

    /** The outcome for {@code key} is known, or its rollback has been answered: waiting acquisitions go on. */
    void settle(HoldKey key) {
        if (unsettled.isEmpty()) {
            return;   // the common case: every acquisition's answer settles, and nothing was marked
        }
        CompletableFuture<Void> settled = unsettled.remove(key);
        if (settled != null) {
            settled.complete(null);
        }
    }

    /**
     * An acquire of {@code key} was answered: settled, unless the answer gave the owner a place in line
     * ({@code placed}, {@link LockKind#queuesWaiters}) that is still to give back; then it stays unsettled until
     * the rollback that gives the place back is answered, so that the owner's next acquisition cannot have its new
     * place taken away by that rollback.
     */
    void answered(HoldKey key, boolean placed) {
        if (placed) {
            mark(key);
        } else {
            settle(key);
        }
    }

    /** Whether some hold is unsettled now (a snapshot; the common answer is no). */
    boolean any() {
        return !unsettled.isEmpty();
    }

    /** Runs {@code start} once {@code key} is settled, if it is not now; true when deferred. */
    boolean deferred(HoldKey key, Runnable start) {
        CompletableFuture<Void> pending = unsettled.isEmpty() ? null : unsettled.get(key);
        if (pending == null) {
            return false;
        }
        pending.whenComplete((ok, failure) -> start.run());
        return true;
    }

    /**
     * Begins {@code acquisition} once {@code key} is settled, if it is not now.
     *
     * @return false when {@code key} is settled now (the caller begins at once; nothing was kept)
     */
    boolean deferred(HoldKey key, Acquisition acquisition) {
        if (unsettled.isEmpty()) {
            return false;
        }
        CompletableFuture<Void> pending = unsettled.get(key);
        if (pending == null) {
            return false;
        }
        pending.whenComplete((ok, failure) -> acquisition.begin());
        return true;
    }
}
