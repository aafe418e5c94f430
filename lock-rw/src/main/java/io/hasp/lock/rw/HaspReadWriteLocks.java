package io.hasp.lock.rw;

import io.hasp.HaspClient;
import io.hasp.ReplicaAcks;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.lock.LockArguments;
import io.hasp.internal.lock.LockService;
import io.hasp.lock.LockOwner;
import java.util.List;

/**
 * The entry point to read/write locks: the read/write locks of one {@link HaspClient}, run by the
 * same lock engine as the client's reentrant locks (the same hold registry, batched watchdog and
 * wait subscriptions).
 *
 * <pre>{@code
 * HaspReadWriteLock rw = HaspReadWriteLocks.of(client).get("catalogue");
 * // or: HaspReadWriteLock rw = HaspReadWriteLocks.get(client, "catalogue");
 * rw.readLock().lock();
 * try { ... } finally { rw.readLock().unlock(); }
 * }</pre>
 *
 * <p>{@code HaspClient} lives in lock-core, which does not depend on lock-rw, so the client has
 * no {@code getReadWriteLock} method of its own; this class is that method. Cheap and
 * thread-safe; closing the client ends its read/write holds as it ends its other holds.
 */
public final class HaspReadWriteLocks {

    private final HaspClient client;
    private final LockService service;

    static {
        // The scripts are read from the jar here, on the application's thread, rather than at first use,
        // which may be on an event-loop thread where a file read blocks (see LockService's script classes).
        List.of(ReadAcquireScript.SCRIPT, ReadUnlockScript.SCRIPT, RwForceUnlockScript.SCRIPT, RwRenewScript.SCRIPT,
                WriteAcquireScript.SCRIPT, WriteUnlockScript.SCRIPT);
    }

    private HaspReadWriteLocks(HaspClient client) {
        this.client = client;
        this.service = ClientInternals.lockService(client);
    }

    /**
     * The read/write locks of {@code client}.
     *
     * @throws IllegalArgumentException when {@code client} is null
     */
    public static HaspReadWriteLocks of(HaspClient client) {
        return new HaspReadWriteLocks(LockArguments.notNull("client", client));
    }

    /**
     * The read/write lock {@code name} of {@code client}: {@code of(client).get(name)}.
     *
     * @throws IllegalArgumentException when an argument is null or the name is empty
     */
    public static HaspReadWriteLock get(HaspClient client, String name) {
        LockArguments.name("name", name);
        return of(client).get(name);
    }

    /**
     * The read/write lock named {@code name} (the Redis key of its hash). Cheap: locks are views;
     * their state lives in Redis and in the client's lock service.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspReadWriteLock get(String name) {
        return get(name, service.replicaAcks());
    }

    /**
     * The read/write lock named {@code name} ({@link #get(String)}), the grants, re-entries, extensions and unlocks
     * of both its modes confirmed by replicas as {@code acks} asks, whatever the client's
     * {@link io.hasp.HaspConfig#replicaAcks()}: {@link ReplicaAcks#NONE} for a lock that needs none on a client that
     * asks them. Its watchdog renewals are confirmed as the client's are. Use one setting per name: a thread
     * holding a mode through one setting does not re-enter it through another.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty, {@code acks} null, or its timeout not
     *     shorter than the client's command timeout
     */
    public HaspReadWriteLock get(String name, ReplicaAcks acks) {
        return new HaspReadWriteLock(service, client.commands(), LockArguments.name("name", name), acks);
    }

    /** The owner {@code holderId} of this client, for the async methods. */
    public LockOwner owner(long holderId) {
        return service.owner(holderId);
    }

    /**
     * How many renewal script calls the client's watchdog has sent, for all kinds of lock (it is
     * one task for the reentrant and the read/write locks); for monitoring.
     */
    public long renewalCalls() {
        return service.renewalCalls();
    }

    /** Number of read and write holds this client currently tracks; for monitoring. */
    public int heldLocks() {
        return service.heldLocks(RwLockKind.READ) + service.heldLocks(RwLockKind.WRITE);
    }
}
