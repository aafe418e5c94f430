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
        RwHold hold = holds.computeIfAbsent(new Key(name, mode, owner), k -> new RwHold(name, mode, owner));
        hold.acquired(target, leaseMillis, watchdog, sentNanos);
        return hold;
    }

    /** Forgets {@code hold} (if it is still the registered one) and completes its end with {@code how}. */
    void end(RwHold hold, HoldEnd how) {
        holds.remove(new Key(hold.name, hold.mode, hold.owner), hold);
        hold.end.complete(how);
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
