package io.hasp.internal.lock;

import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The holds this client knows it has, by lock kind, lock name and owner. Shared by every lock of
 * one client whatever its {@link LockKind}, the {@link LeaseRenewer} and the unlock path. Thread-safe.
 */
final class HoldRegistry {

    /** How many ended-but-not-unlocked holds {@link #endedUnreleased} remembers at most. */
    private static final int MAX_REMEMBERED = 4096;

    private final ConcurrentHashMap<HoldKey, Hold> holds = new ConcurrentHashMap<>();
    /**
     * Holds that ended {@link HoldEnd#LOST} or {@link HoldEnd#EXPIRED} and whose owner has not
     * unlocked since, with how they ended: an unlock that finds its hold gone reports why. Bounded:
     * past {@link #MAX_REMEMBERED} entries the oldest-looking are dropped.
     */
    private final ConcurrentHashMap<HoldKey, Ended> endedUnreleased = new ConcurrentHashMap<>();
    private final Consumer<Hold> onLost;
    private final LockEvents events;   // null: no listener

    /** A registry that tells no one when a hold is lost. */
    HoldRegistry() {
        this(hold -> { }, null);
    }

    /**
     * A registry that calls {@code onLost} with each hold that ends {@link HoldEnd#LOST} or {@link HoldEnd#EXPIRED},
     * and tells {@code events} (unless null) of every hold that begins and ends.
     */
    HoldRegistry(Consumer<Hold> onLost, LockEvents events) {
        this.onLost = onLost;
        this.events = events;
    }

    /** The hold of {@code owner} on {@code name} in {@code kind}, or null. */
    Hold get(LockKind kind, String name, LockOwner owner) {
        return holds.get(HoldKey.of(kind, name, owner));
    }

    /** The hold count this client believes the hold {@code key} has (0: none). */
    int count(HoldKey key) {
        Hold hold = holds.get(key);
        return hold == null ? 0 : hold.count();
    }

    /** Records a successful acquisition and returns the (possibly new) hold. */
    Hold acquired(LockKind kind, String name, LockOwner owner, int target, long leaseMillis, boolean watchdog,
            long sentNanos) {
        return acquired(HoldKey.of(kind, name, owner), owner, target, leaseMillis, watchdog, sentNanos);
    }

    /** Records a successful acquisition of the hold {@code key} by {@code owner}; returns the (possibly new) hold. */
    Hold acquired(HoldKey key, LockOwner owner, int target, long leaseMillis, boolean watchdog, long sentNanos) {
        endedUnreleased.remove(key);
        for (;;) {
            Hold hold = holds.get(key);
            if (hold == null) {
                Hold fresh = new Hold(key, owner);
                hold = holds.putIfAbsent(key, fresh);
                if (hold == null) {
                    hold = fresh;
                    if (events != null) {
                        events.holdBegan(fresh, sentNanos);
                    }
                }
            }
            if (hold.acquired(target, leaseMillis, watchdog, sentNanos)) {
                return hold;
            }
            // It ended (lost, released) as this acquisition landed: the new hold is a new record.
            holds.remove(key, hold);
        }
    }

    /** How a hold ended, and why in words when the ender knew more than {@code how} says (else null). */
    record Ended(HoldEnd how, String why) {
    }

    /** Ends {@code hold}: forgets it (if it is still the registered one) and completes its end with {@code how}. */
    void end(Hold hold, HoldEnd how) {
        end(hold, how, null);
    }

    /** {@link #end(Hold, HoldEnd)}, remembering {@code why} for the unlock that will find the hold gone. */
    void end(Hold hold, HoldEnd how, String why) {
        boolean first = hold.markEnded();
        boolean lost = how == HoldEnd.LOST || how == HoldEnd.EXPIRED;
        if (first && lost) {
            // Before the hold leaves the registry, and before anyone hears of its end: an unlock that finds no hold
            // registered must find why it ended (its owner may unlock the moment holdEnd() completes, and the
            // callbacks and the listener told here may take their time).
            remember(hold.key, new Ended(how, why));
        }
        holds.remove(hold.key, hold);
        if (first) {
            hold.end.complete(how);
            if (events != null) {
                events.holdEnded(hold, how);
            }
            if (lost) {
                onLost.accept(hold);
            }
        }
    }

    /**
     * Ends the hold {@code key}, which a re-entry found gone from Redis, as {@link HoldEnd#EXPIRED} when its lease
     * had run out by {@code nowNanos}, else {@link HoldEnd#LOST}; the owner's next unlock reports it again.
     *
     * @return the re-entry's failure, naming the lock, the owner and how the hold ended
     */
    HoldLostException lostOnReentry(HoldKey key, long nowNanos) {
        Hold hold = holds.get(key);
        boolean expired = hold != null && hold.expired(nowNanos, 0);
        HoldEnd how = expired ? HoldEnd.EXPIRED : HoldEnd.LOST;
        String why = expired ? "its lease of " + hold.leaseMillis() + " ms ran out"
                : "it was no longer in Redis: the key was deleted or taken over, or the server lost it";
        if (hold != null) {
            end(hold, how, why);
        }
        return new HoldLostException(key.kind() + " lock " + key.name() + ": the hold of " + key.field()
                + " that this re-entry would add to had ended (" + how + ": " + why + ")", how);
    }

    /**
     * How the hold {@code key} ended, if it ended {@link HoldEnd#LOST} or {@link HoldEnd#EXPIRED}
     * and was not unlocked or acquired again since; forgets it (one unlock reports it).
     */
    Ended forgetEnded(HoldKey key) {
        return endedUnreleased.isEmpty() ? null : endedUnreleased.remove(key);   // every release asks: mostly none
    }

    private void remember(HoldKey key, Ended how) {
        if (endedUnreleased.size() >= MAX_REMEMBERED) {
            Iterator<HoldKey> oldest = endedUnreleased.keySet().iterator();
            if (oldest.hasNext()) {
                oldest.next();
                oldest.remove();
            }
        }
        endedUnreleased.put(key, how);
    }

    /** Every registered hold, a snapshot. */
    Collection<Hold> all() {
        return new ArrayList<>(holds.values());
    }

    /** The registered holds on lock {@code name} in {@code kind}, a snapshot. */
    List<Hold> onLock(LockKind kind, String name) {
        List<Hold> result = new ArrayList<>();
        for (Hold hold : holds.values()) {
            if (hold.name.equals(name) && hold.kind.equals(kind)) {
                result.add(hold);
            }
        }
        return result;
    }

    /** Number of registered holds. */
    int size() {
        return holds.size();
    }

    /** Number of registered holds of {@code kind}, taken through views that confirm it with replicas too. */
    int size(LockKind kind) {
        int n = 0;
        for (HoldKey key : holds.keySet()) {
            LockKind held = key.kind();
            if (held.equals(kind) || held instanceof ConfirmedKind confirmed && confirmed.base().equals(kind)) {
                n++;
            }
        }
        return n;
    }
}
