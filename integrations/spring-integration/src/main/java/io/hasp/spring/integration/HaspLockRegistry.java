package io.hasp.spring.integration;

import io.hasp.HaspClient;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.scheduling.TaskScheduler;

/**
 * Spring Integration's lock registry on hasp: {@link #obtain(Object) obtain(key)} gives the
 * {@link DistributedLock} of {@code key}, a hasp reentrant lock named {@code <registryKey>:<key>} (a
 * Redis hash in Redisson's layout, waiters woken by pub/sub), for aggregators, leader election
 * ({@code LockRegistryLeaderInitiator}), idempotent receivers and {@link #executeLocked}.
 *
 * <p>As with Spring Integration's {@code RedisLockRegistry}:
 * <ul>
 *   <li>a lock is held by a thread and is reentrant; locks of two registries are different holders,
 *       also in one JVM and one thread;</li>
 *   <li>an unlock by a thread that does not hold the lock throws {@link IllegalStateException}; an unlock
 *       of a hold that ended meanwhile (its time to live ran out, the key was deleted or lost in a
 *       failover) throws {@link java.util.ConcurrentModificationException}: whatever was done since is
 *       unprotected;</li>
 *   <li>a lock that Redis refuses (an error that retrying cannot mend, such as a key of another type) or
 *       a client that closed throws {@link CannotAcquireLockException};</li>
 *   <li>{@code lock(ttl)}, {@code tryLock(wait, ttl)} and {@link #renewLock(Object, Duration)} set a time to live;
 *       {@link #expireUnusedOlderThan} forgets unused lock objects; at most {@link #setCacheCapacity} lock
 *       objects are kept.</li>
 * </ul>
 *
 * <p>Where hasp differs: a registry made without a time to live ({@link #HaspLockRegistry(HaspClient,
 * String)}) keeps each lock while it is held with hasp's watchdog, so long work never outlives its lock,
 * and a crashed holder's lock frees itself one watchdog lease later. {@code RedisLockRegistry} lets a lock
 * expire 60 seconds after it was taken unless a renewal scheduler is set; {@link
 * #HaspLockRegistry(HaspClient, String, Duration)} behaves that way. Its keys are hashes, not strings: do
 * not let a {@code RedisLockRegistry} and this registry share a registry key. While Redis cannot be reached
 * (a lost link, a failover), {@code lock()} waits for it and {@code tryLock(wait)} answers false when its
 * wait ran out, as hasp's locks do, where {@code RedisLockRegistry} throws; an unlock that got no answer
 * within hasp's retry budget throws the Redis error and keeps the hold, to be unlocked again.
 * {@link #renewLock} renews the calling thread's hold (hasp's holders are threads, not registries). A lock
 * object that {@link #obtain} no longer keeps still works.
 *
 * <p>When its application stops, the registry ({@link #destroy()}) waits a little for the locks its
 * threads are giving back, so that a stopping leader or worker frees its lock at once rather than one
 * lease later. Thread-safe. The registry does not close the client.
 */
public final class HaspLockRegistry implements ExpirableLockRegistry<DistributedLock>,
        RenewableLockRegistry<DistributedLock>, DisposableBean {

    /** How many lock objects a registry keeps unless told otherwise: 100,000. */
    public static final int DEFAULT_CACHE_CAPACITY = 100_000;

    /** Numbers the registries of this JVM: each is its own set of holders. */
    private static final AtomicLong REGISTRIES = new AtomicLong();

    private final HaspClient client;
    private final String registryKey;
    private final Duration expireAfter;
    private final String holderClientId;
    /** The lock objects by key, least recently obtained first (guarded by itself). */
    private final Map<String, RegistryLock> locks = new LinkedHashMap<>(16, 0.75f, true);
    private volatile int cacheCapacity = DEFAULT_CACHE_CAPACITY;
    private volatile TaskScheduler renewalScheduler;
    /** Notified whenever a thread's last hold of one of the locks ends. */
    private final Object released = new Object();

    /**
     * A registry whose locks, taken without a time to live, are kept by hasp's watchdog while held.
     *
     * @param client the client the locks are taken with
     * @param registryKey put before each key, with a colon, to make its lock's name
     * @throws IllegalArgumentException when an argument is null or the key empty
     */
    public HaspLockRegistry(HaspClient client, String registryKey) {
        this(client, registryKey, null, "registryKey");
    }

    /**
     * A registry whose locks, taken without a time to live, get {@code expireAfter}, as
     * {@code RedisLockRegistry}'s do: they run out then unless renewed ({@link #renewLock(Object)}, or
     * every third of it once {@link #setRenewalTaskScheduler} was called).
     *
     * @param client the client the locks are taken with
     * @param registryKey put before each key, with a colon, to make its lock's name
     * @param expireAfter the time to live of a lock taken without one; at least the client's timer tick
     * @throws IllegalArgumentException when an argument is null, the key empty or the time too short
     */
    public HaspLockRegistry(HaspClient client, String registryKey, Duration expireAfter) {
        this(client, registryKey, checkTtl(client, "expireAfter", expireAfter), "registryKey");
    }

    private HaspLockRegistry(HaspClient client, String registryKey, Duration expireAfter, String keyArgument) {
        if (client == null) {
            throw new IllegalArgumentException("client: null (expected: a HaspClient)");
        }
        if (registryKey == null || registryKey.isEmpty()) {
            throw new IllegalArgumentException(keyArgument + ": " + (registryKey == null ? "null" : "\"\"")
                    + " (expected: a non-empty prefix of the locks' names)");
        }
        this.client = client;
        this.registryKey = registryKey;
        this.expireAfter = expireAfter;
        this.holderClientId = client.id() + "#registry-"
                + REGISTRIES.incrementAndGet();
    }

    /**
     * {@code ttl} checked: not null, at least the client's timer tick.
     *
     * @throws IllegalArgumentException otherwise
     */
    static Duration checkTtl(HaspClient client, String argument, Duration ttl) {
        if (client == null) {
            throw new IllegalArgumentException("client: null (expected: a HaspClient)");
        }
        Duration tick = client.config().timerTick();
        if (ttl == null || ttl.compareTo(tick) < 0) {
            throw new IllegalArgumentException(argument + ": " + ttl + " (expected: at least " + tick
                    + ", the client's timer tick)");
        }
        return ttl;
    }

    /**
     * The lock of {@code lockKey}; the same object for the same key while it is kept.
     *
     * @param lockKey a {@link String}
     * @throws IllegalArgumentException when the key is not a non-empty string
     * @throws CannotAcquireLockException when the registry keeps {@link #setCacheCapacity as many}
     *     locks and each is held in this process
     */
    @Override
    public DistributedLock obtain(Object lockKey) {
        String key = key(lockKey);
        synchronized (locks) {
            RegistryLock lock = locks.get(key);
            if (lock == null) {
                lock = new RegistryLock(this, key, client.getLock(registryKey + ':' + key));
                locks.put(key, lock);
                evictBeyondCapacity(lock);
            }
            return lock;
        }
    }

    /** Drops the least recently obtained unheld locks while more than the capacity are kept; {@code fresh} is kept. */
    private void evictBeyondCapacity(RegistryLock fresh) {
        Iterator<RegistryLock> oldest = locks.values().iterator();
        while (locks.size() > cacheCapacity && oldest.hasNext()) {
            RegistryLock lock = oldest.next();
            if (lock != fresh && !lock.isAcquiredInThisProcess()) {
                oldest.remove();
            }
        }
        if (locks.size() > cacheCapacity) {
            locks.remove(fresh.key());
            throw new CannotAcquireLockException("There are already " + cacheCapacity + " locks of " + this
                    + " held in this process; cannot obtain more now");
        }
    }

    private static String key(Object lockKey) {
        if (!(lockKey instanceof String key) || key.isEmpty()) {
            throw new IllegalArgumentException("lockKey: " + (lockKey == null ? "null" : lockKey.getClass().getName()
                    + " " + lockKey) + " (expected: a non-empty String)");
        }
        return key;
    }

    /**
     * Forgets the lock objects last taken more than {@code age} milliseconds ago and not held in this
     * process; a later {@link #obtain} makes a new one. Nothing in Redis changes.
     */
    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.currentTimeMillis();
        synchronized (locks) {
            locks.values().removeIf(lock -> now - lock.lockedAt() >= age && !lock.isAcquiredInThisProcess());
        }
    }

    /**
     * Resets the time to live of the calling thread's hold of {@code lockKey}: to this registry's
     * {@code expireAfter}, or, in a registry without one, to the time to live the hold was taken with. A
     * hold kept by the watchdog needs no renewal: the call checks that it still exists.
     *
     * @throws IllegalStateException when the calling thread does not hold the lock, or its hold had ended
     */
    @Override
    public void renewLock(Object lockKey) {
        registryLock(lockKey).renew(expireAfter);
    }

    /**
     * Resets the time to live of the calling thread's hold of {@code lockKey} to {@code ttl} from now.
     *
     * @throws IllegalArgumentException when {@code ttl} is null or shorter than the client's timer tick
     * @throws IllegalStateException when the calling thread does not hold the lock, its hold had ended,
     *     or it is kept by the watchdog (taken without a time to live in a registry without one)
     */
    @Override
    public void renewLock(Object lockKey, Duration ttl) {
        checkTtl(client, "ttl", ttl);
        registryLock(lockKey).renew(ttl);
    }

    private RegistryLock registryLock(Object lockKey) {
        return (RegistryLock) obtain(lockKey);
    }

    /**
     * Renews each hold that has a time to live every third of it while it is held, on {@code scheduler}
     * (as {@code RedisLockRegistry} does); holds kept by the watchdog are renewed by hasp already. Takes
     * effect for locks taken afterwards.
     */
    @Override
    public void setRenewalTaskScheduler(TaskScheduler scheduler) {
        if (scheduler == null) {
            throw new IllegalArgumentException("renewalTaskScheduler: null (expected: a TaskScheduler)");
        }
        this.renewalScheduler = scheduler;
    }

    /**
     * How many lock objects the registry keeps at most; beyond it, {@link #obtain} forgets the least
     * recently obtained ones not held in this process.
     *
     * @throws IllegalArgumentException when not positive
     */
    public void setCacheCapacity(int cacheCapacity) {
        if (cacheCapacity <= 0) {
            throw new IllegalArgumentException("cacheCapacity: " + cacheCapacity + " (expected: > 0)");
        }
        this.cacheCapacity = cacheCapacity;
    }

    /**
     * Waits, at most twice the client's command timeout, until no thread of this process holds a lock
     * through this registry: threads that their application's shutdown interrupted (a
     * {@code LockRegistryLeaderInitiator}, say) are giving theirs back, and the client is about to close.
     * Locks still held then stay in Redis, kept by the watchdog until the client closes, then until their
     * leases end. The registry stays usable.
     */
    @Override
    public void destroy() throws InterruptedException {
        long deadline = System.nanoTime() + client.config().commandTimeout().multipliedBy(2).toNanos();
        synchronized (released) {
            for (long left = deadline - System.nanoTime(); heldInThisProcess() && left > 0;
                    left = deadline - System.nanoTime()) {
                released.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private boolean heldInThisProcess() {
        synchronized (locks) {
            for (RegistryLock lock : locks.values()) {
                if (lock.isAcquiredInThisProcess()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Called by a lock when a thread's last hold of it ended. */
    void releasedOne() {
        synchronized (released) {
            released.notifyAll();
        }
    }

    /** The time to live of locks taken without one; {@code null} when the watchdog keeps them. */
    public Duration expireAfter() {
        return expireAfter;
    }

    /** The prefix of the locks' names. */
    public String registryKey() {
        return registryKey;
    }

    /** The client id in the owner fields of this registry's holds ({@code <clientId>#registry-<n>}). */
    String holderClientId() {
        return holderClientId;
    }

    HaspClient client() {
        return client;
    }

    TaskScheduler renewalScheduler() {
        return renewalScheduler;
    }

    /** How many lock objects the registry keeps now. */
    int cachedLocks() {
        synchronized (locks) {
            return locks.size();
        }
    }

    @Override
    public String toString() {
        return "HaspLockRegistry[registryKey=" + registryKey + ", "
                + (expireAfter == null ? "watchdog" : "expireAfter=" + expireAfter) + "]";
    }
}
