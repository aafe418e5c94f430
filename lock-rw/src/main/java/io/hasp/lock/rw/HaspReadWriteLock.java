package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.internal.Futures;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.lock.Locks;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * A distributed read/write lock on Redis, wire-compatible with Redisson 4.x's
 * {@code RReadWriteLock}: any number of readers hold it together, a writer holds it alone, and
 * hasp and Redisson clients using the same name share, exclude and wake each other. Get one from
 * {@link HaspReadWriteLocks#of(io.hasp.HaspClient)}.
 *
 * <p><b>Holds.</b> Both modes are reentrant per owner (a {@link io.hasp.lock.LockOwner}: the
 * blocking methods use the calling thread, the async ones take the owner explicitly). The write
 * holder may also take the read lock and then release the write lock: a <em>downgrade</em>. A read
 * holder asking for the write lock (an <em>upgrade</em>) fails at once with
 * {@link LockUpgradeException}, since it would wait for its own read hold forever.
 *
 * <p><b>Leases.</b> Every read hold has its own timeout key with its own lease, so a reader with a
 * short lease never shortens another's protection; the lock's hash lives as long as its longest
 * hold and disappears when the last one ends or expires. Holds taken without a lease are renewed
 * by the client's watchdog, the one task that also renews its reentrant locks (the hash and the
 * owner's own timeout keys), until unlocked.
 *
 * <p><b>Wake-ups.</b> Releases are announced on {@code redisson_rwlock:{<name>}}: the end of a write
 * hold publishes {@code "1"} (all waiters look: readers enter together), a read unlock that frees
 * the lock publishes {@code "0"} (one waiter, a writer, looks). Waiters also look again when the
 * holder's TTL runs out, so a lost message costs at most one TTL. Every key of the lock carries
 * the {@code {<name>}} hash tag. Instances are cheap views and thread-safe.
 */
public final class HaspReadWriteLock implements ReadWriteLock {

    private final LockService service;
    private final RedisCommands redis;
    private final String name;
    private final ModeLock readLock;
    private final ModeLock writeLock;

    /** Lock {@code name}, each mode's writes confirmed by replicas as {@code acks} asks (the client's setting: as is). */
    HaspReadWriteLock(LockService service, RedisCommands redis, String name, ReplicaAcks acks) {
        this.service = service;
        this.redis = redis;
        this.name = name;
        this.readLock = new RwModeLock(service, name, RwLockKind.READ, Locks.confirmed(service, RwLockKind.READ, acks));
        this.writeLock = new RwModeLock(service, name, RwLockKind.WRITE,
                Locks.confirmed(service, RwLockKind.WRITE, acks));
    }

    /** The lock's name: the Redis key of its hash. */
    public String getName() {
        return name;
    }

    /** The shared mode: any number of readers together, no other writer. */
    @Override
    public ModeLock readLock() {
        return readLock;
    }

    /** The exclusive mode: one writer (with its own read holds, if it downgrades), nobody else. */
    @Override
    public ModeLock writeLock() {
        return writeLock;
    }

    /**
     * Whether anyone holds the lock in either mode (hasp or Redisson clients).
     *
     * @throws IllegalStateException when called on one of the client's own threads (use {@link #isLockedAsync()})
     */
    public boolean isLocked() {
        return Futures.await(isLockedAsync());
    }

    /** Whether anyone holds the lock in either mode; completes on an event-loop thread. */
    public CompletableFuture<Boolean> isLockedAsync() {
        return redis.pttl(name).thenApply(ttl -> ttl != -2);
    }

    /** The lock's name and client. */
    @Override
    public String toString() {
        return "HaspReadWriteLock[" + name + ", client " + service.clientId() + "]";
    }
}
