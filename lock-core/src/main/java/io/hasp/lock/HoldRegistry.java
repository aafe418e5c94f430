package io.hasp.lock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds this client knows it has, by lock kind, lock name and owner. Shared by every lock of
 * one client whatever its {@link LockKind}, the {@link LeaseRenewer} and the unlock path. Thread-safe.
 */
final class HoldRegistry {

    private record Key(LockKind kind, String name, String field) {
    }

    private final ConcurrentHashMap<Key, Hold> holds = new ConcurrentHashMap<>();

    private static Key key(LockKind kind, String name, LockOwner owner) {
        return new Key(kind, name, kind.holdField(owner));
    }

    /** The hold of {@code owner} on {@code name} in {@code kind}, or null. */
    Hold get(LockKind kind, String name, LockOwner owner) {
        return holds.get(key(kind, name, owner));
    }

    /** The hold count this client believes {@code owner} has on {@code name} in {@code kind} (0: none). */
    int count(LockKind kind, String name, LockOwner owner) {
        Hold hold = holds.get(key(kind, name, owner));
        return hold == null ? 0 : hold.count();
    }

    /** Records a successful acquisition and returns the (possibly new) hold. */
    Hold acquired(LockKind kind, String name, LockOwner owner, int target, long leaseMillis, boolean watchdog,
            long sentNanos) {
        Key key = key(kind, name, owner);
        for (;;) {
            Hold hold = holds.computeIfAbsent(key, k -> new Hold(kind, name, owner));
            if (hold.acquired(target, leaseMillis, watchdog, sentNanos)) {
                return hold;
            }
            // It ended (lost, released) as this acquisition landed: the new hold is a new record.
            holds.remove(key, hold);
        }
    }

    /** Ends {@code hold}: forgets it (if it is still the registered one) and completes its end with {@code how}. */
    void end(Hold hold, HoldEnd how) {
        boolean first = hold.markEnded();
        holds.remove(new Key(hold.kind, hold.name, hold.field), hold);
        if (first) {
            hold.end.complete(how);
        }
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

    /** Number of registered holds of {@code kind}. */
    int size(LockKind kind) {
        int n = 0;
        for (Key key : holds.keySet()) {
            if (key.kind().equals(kind)) {
                n++;
            }
        }
        return n;
    }
}
