package io.hasp.lock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds this client knows it has, by lock name and owner. Shared by every {@link HaspLock}
 * of one client, the {@link LeaseRenewer} and the unlock path. Thread-safe.
 */
final class HoldRegistry {

    private record Key(String name, String owner) {
    }

    private final ConcurrentHashMap<Key, Hold> holds = new ConcurrentHashMap<>();

    /** The hold of {@code owner} on {@code name}, or null. */
    Hold get(String name, String owner) {
        return holds.get(new Key(name, owner));
    }

    /** The hold count this client believes {@code owner} has on {@code name} (0: none). */
    int count(String name, String owner) {
        Hold hold = holds.get(new Key(name, owner));
        return hold == null ? 0 : hold.count();
    }

    /** Records a successful acquisition and returns the (possibly new) hold. */
    Hold acquired(String name, String owner, int target, long leaseMillis, boolean watchdog, long sentNanos) {
        Key key = new Key(name, owner);
        for (;;) {
            Hold hold = holds.computeIfAbsent(key, k -> new Hold(name, owner));
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
        holds.remove(new Key(hold.name, hold.owner), hold);
        if (first) {
            hold.end.complete(how);
        }
    }

    /** Every registered hold, a snapshot. */
    Collection<Hold> all() {
        return new ArrayList<>(holds.values());
    }

    /** The registered holds on lock {@code name}, a snapshot. */
    List<Hold> onLock(String name) {
        List<Hold> result = new ArrayList<>();
        for (Hold hold : holds.values()) {
            if (hold.name.equals(name)) {
                result.add(hold);
            }
        }
        return result;
    }

    /** Number of registered holds. */
    int size() {
        return holds.size();
    }
}
