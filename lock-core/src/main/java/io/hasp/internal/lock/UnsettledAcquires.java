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
 * then finds missing, and the hold counts of client and Redis would part.
 *
 * <p>A place in a line ({@link LockKind#queuesWaiters}) is marked too, for as long as the owner waits and until
 * it is given back: the owner's next acquisition starts after that, so that the give-back cannot take away the
 * new acquisition's place (one owner has one place). An unlock does not wait for a place: it gives back a hold,
 * which a place in line never is. Thread-safe; costs one emptiness check per acquisition and unlock while
 * nothing is unsettled.
 */
final class UnsettledAcquires {

    /** What is unsettled for one hold: an acquire with an unknown outcome, or only a place in line. */
    private record Pending(CompletableFuture<Void> settled, boolean placeOnly) {
    }

    private final ConcurrentHashMap<HoldKey, Pending> unsettled = new ConcurrentHashMap<>();

    /** An acquire of {@code key} may have taken effect unseen. */
    void mark(HoldKey key) {
        unsettled.compute(key, (k, pending) -> pending == null ? new Pending(new CompletableFuture<>(), false)
                : pending.placeOnly ? new Pending(pending.settled, false) : pending);
    }

    /** The owner of {@code key} has a place in a line, to give back when it stops waiting. */
    void markPlaced(HoldKey key) {
        unsettled.computeIfAbsent(key, k -> new Pending(new CompletableFuture<>(), true));
    }

    /** The outcome for {@code key} is known, or its rollback has been answered: waiting acquisitions go on. */
    void settle(HoldKey key) {
        if (unsettled.isEmpty()) {
            return;   // the common case: every acquisition's answer settles, and nothing was marked
        }
        Pending pending = unsettled.remove(key);
        if (pending != null) {
            pending.settled.complete(null);
        }
    }

    /** Whether some hold is unsettled now (a snapshot; the common answer is no). */
    boolean any() {
        return !unsettled.isEmpty();
    }

    /** Runs {@code unlock} once {@code key} has no acquire with an unknown outcome, if it has one now; true when deferred. */
    boolean deferred(HoldKey key, Runnable unlock) {
        Pending pending = unsettled.isEmpty() ? null : unsettled.get(key);
        if (pending == null || pending.placeOnly) {
            return false;
        }
        pending.settled.whenComplete((ok, failure) -> unlock.run());
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
        Pending pending = unsettled.get(key);
        if (pending == null) {
            return false;
        }
        pending.settled.whenComplete((ok, failure) -> acquisition.begin());
        return true;
    }
}
