package io.hasp.lock.rw;

import io.hasp.HaspClient;
import io.hasp.lock.LockOwner;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The entry point to read/write locks: the read/write lock machinery of one {@link HaspClient}
 * (its read/write holds, watchdog and waiters), shared by every lock it hands out.
 *
 * <pre>{@code
 * HaspReadWriteLock rw = HaspReadWriteLocks.of(client).get("catalogue");
 * // or: HaspReadWriteLock rw = HaspReadWriteLocks.get(client, "catalogue");
 * rw.readLock().lock();
 * try { ... } finally { rw.readLock().unlock(); }
 * }</pre>
 *
 * <p>{@code HaspClient} lives in lock-core, which does not depend on lock-rw, so the client has
 * no {@code getReadWriteLock} method of its own; this class is that method. Thread-safe; there
 * is one instance per client (remembered weakly), and closing the client ends its holds.
 */
public final class HaspReadWriteLocks {

    private static final Map<HaspClient, HaspReadWriteLocks> BY_CLIENT = new WeakHashMap<>();

    private final RwService service;

    private HaspReadWriteLocks(RwService service) {
        this.service = service;
    }

    /**
     * The read/write locks of {@code client}: the same instance for every call with one client.
     *
     * @throws IllegalArgumentException when {@code client} is null
     */
    public static HaspReadWriteLocks of(HaspClient client) {
        RwArguments.notNull("client", client);
        synchronized (BY_CLIENT) {
            return BY_CLIENT.computeIfAbsent(client, c -> new HaspReadWriteLocks(new RwService(c)));
        }
    }

    /**
     * The read/write lock {@code name} of {@code client}: {@code of(client).get(name)}.
     *
     * @throws IllegalArgumentException when an argument is null or the name is empty
     */
    public static HaspReadWriteLock get(HaspClient client, String name) {
        RwArguments.name("name", name);
        return of(client).get(name);
    }

    /**
     * The read/write lock named {@code name} (the Redis key of its hash). Cheap: locks are views;
     * their state lives in Redis and in this object.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspReadWriteLock get(String name) {
        return new HaspReadWriteLock(service, RwArguments.name("name", name));
    }

    /** The owner {@code holderId} of this client, for the async methods. */
    public LockOwner owner(long holderId) {
        return service.owner(holderId);
    }

    /** How many renewal script calls this client's read/write lock watchdog has sent; for monitoring. */
    public long renewalCalls() {
        return service.renewalCalls();
    }

    /** Number of read and write holds this client currently tracks; for monitoring. */
    public int heldLocks() {
        return service.holds().size();
    }
}
