package io.hasp.lock.rw;

import io.hasp.lock.HoldEnd;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/** The read/write holds this client knows it has, by lock name, mode and owner. Thread-safe. */
final class RwHolds {

    private record Key(String name, LockMode mode, String owner) {
    }

    private final ConcurrentHashMap<Key, RwHold> holds = new ConcurrentHashMap<>();

    RwHold get(String name, LockMode mode, String owner) {
        return holds.get(new Key(name, mode, owner));
    }

    /** The hold count this client believes {@code owner} has (0: none). */
    int count(String name, LockMode mode, String owner) {
        RwHold hold = get(name, mode, owner);
        return hold == null ? 0 : hold.count();
    }

    /** Records a successful acquisition and returns the (possibly new) hold. */
    RwHold acquired(String name, LockMode mode, String owner, int target, long leaseMillis, boolean watchdog,
            long sentNanos) {
        Key key = new Key(name, mode, owner);
        for (;;) {
            RwHold hold = holds.compute(key, (k, h) -> h == null || h.end.isDone() ? new RwHold(name, mode, owner) : h);
            if (hold.acquired(target, leaseMillis, watchdog, sentNanos)) {
                return hold;
            }
            // It ended between the lookup and the update: a new hold replaces it.
            holds.remove(key, hold);
        }
    }

    /** Forgets {@code hold} (if it is still the registered one) and completes its end with {@code how}. */
    void end(RwHold hold, HoldEnd how) {
        hold.end(how);
        holds.remove(new Key(hold.name, hold.mode, hold.owner), hold);
    }

    Collection<RwHold> all() {
        return new ArrayList<>(holds.values());
    }

    /** The registered holds on lock {@code name} in {@code mode}, a snapshot. */
    List<RwHold> on(String name, LockMode mode) {
        List<RwHold> result = new ArrayList<>();
        for (RwHold hold : holds.values()) {
            if (hold.name.equals(name) && hold.mode == mode) {
                result.add(hold);
            }
        }
        return result;
    }

    int size() {
        return holds.size();
    }
}
