package io.hasp.sync;

import io.hasp.lock.HoldEnd;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A distributed semaphore whose permits are leased, in the layout of Redisson's {@code RPermitExpirableSemaphore}
 * (3.x and 4.x), so that hasp and Redisson clients share one semaphore: the free permits are a decimal number at the
 * semaphore's name, each leased permit is an entry of the sorted set {@code {<name>}:timeout} scored by the end of its
 * lease, and permits that come back are announced on {@code redisson_sc:{<name>}}.
 *
 * <p>Each acquisition leases one permit and returns the permit's id (32 hexadecimal digits): the holder gives it back
 * by its id ({@link #release}). A permit taken with a lease time lasts that long unless extended
 * ({@link #updateLeaseTime}); a permit taken without one is kept by the client's watchdog: leased for the client's
 * {@link io.hasp.HaspConfig#watchdogLease() watchdog lease} and renewed in every pass of the watchdog (beside its
 * locks), so it lasts while the client lives, and comes back by itself within one lease once the process dies or
 * loses Redis; {@link #leaseEnd} tells when such a permit was lost. Either way a permit whose holder dies comes back
 * by itself when its lease runs out. A lease that ran out is reclaimed by whichever client looks next (an
 * acquisition, a release, {@link #availablePermits}), hasp's or Redisson's. Until {@link #trySetPermits} (or
 * {@link #addPermits}) sets them, a semaphore has no permits.
 *
 * <p><b>Clocks.</b> hasp's scripts read the time from the Redis server's clock: a hasp client's leases end when the
 * server's clock says so, whatever the client's clock says. Redisson's clients score and reclaim leases with their own
 * clocks; in a mixed fleet, a Redisson client whose clock runs ahead of the server's by some seconds reclaims every
 * lease that many seconds early (hasp's included), and one whose clock runs behind leases its permits that much
 * longer. Keep the fleet's clocks synchronised (NTP) while Redisson clients share the semaphore.
 *
 * <p>A waiting acquisition listens on the semaphore's channel (one subscription per client and semaphore), as the
 * plain semaphore's do, and also looks again when the first lease that can run out does. A waiter whose wait ends
 * (deadline, interrupt, cancelled future) while its permit is granted gives it back; a wait interrupted just as its
 * permit was granted keeps it, and its thread keeps its interrupt status. When a command fails (the server
 * unreachable, no reply in time) the call fails with that {@link io.hasp.RedisException}; an acquisition whose reply
 * was lost gives its permit back (now, and again a few seconds later), and a permit it may still have taken comes back
 * when its lease runs out, however long that is. Closing the client ends its waits with
 * {@link io.hasp.RedisClosedException}.
 *
 * <p>On a Redis Cluster, the name must not carry a hash tag that differs from Redisson's rule (a name with an
 * opening brace is used as it is for the leases' key and the channel): such a name's keys may fall in different slots,
 * and every call then fails.
 *
 * <p>Blocking calls must not run on a hasp client's own threads (they fail at once with
 * {@link IllegalStateException}); the async twins complete on them.
 */
public interface HaspPermitExpirableSemaphore {

    /** @return the semaphore's name, the Redis key of its free permits */
    String getName();

    /**
     * Sets the number of permits, unless they were set before.
     *
     * @param permits the permits, at least 0
     * @return true when they were set; false when the semaphore had permits set already (nothing changed)
     * @throws IllegalArgumentException when {@code permits} is negative
     */
    boolean trySetPermits(int permits);

    /** @see #trySetPermits(int) */
    CompletableFuture<Boolean> trySetPermitsAsync(int permits);

    /**
     * Adds free permits (or takes some away, when negative) and wakes waiters for them.
     *
     * @param permits how many to add
     */
    void addPermits(int permits);

    /** @see #addPermits(int) */
    CompletableFuture<Void> addPermitsAsync(int permits);

    /** @return the number of permits free now, once leases that ran out are reclaimed (0 when never set) */
    int availablePermits();

    /** @see #availablePermits() */
    CompletableFuture<Integer> availablePermitsAsync();

    /**
     * Takes one permit kept by the watchdog, waiting as long as it takes.
     *
     * @return the permit's id
     * @throws InterruptedException when interrupted while waiting (a permit granted meanwhile is given back; one
     *     granted just as the interrupt came is kept: its id is returned, and the thread keeps its interrupt status)
     */
    String acquire() throws InterruptedException;

    /** @return the id of one permit kept by the watchdog if one is free now (without waiting), or null */
    String tryAcquire();

    /**
     * Takes one permit kept by the watchdog, waiting at most {@code waitTime}.
     *
     * @param waitTime how long to wait at most; zero or negative: a single try
     * @return the permit's id, or null when none was free within the wait
     * @throws InterruptedException when interrupted while waiting (a permit granted meanwhile is given back; one
     *     granted just as the interrupt came is kept: its id is returned, and the thread keeps its interrupt status)
     */
    String tryAcquire(Duration waitTime) throws InterruptedException;

    /** @see #tryAcquire(Duration) */
    String tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException;

    /**
     * How the permit {@code permitId}, kept by this client's watchdog, ended: {@link HoldEnd#RELEASED} when this
     * client gave it back, {@link HoldEnd#LOST} when a renewal found it gone (its lease ran out, or another client
     * gave it back) or could not reach Redis before its lease ran out, {@link HoldEnd#CLIENT_CLOSED} when the client
     * closed first (its lease then runs out in Redis). Asked after the permit ended, it answers how (until this client
     * gives the id back, or forgets it among the last few thousand endings). Completes with {@link HoldEnd#RELEASED}
     * at once for a permit this client never kept (one taken with a lease time, or by another client).
     *
     * @throws IllegalArgumentException when {@code permitId} is not an id's 32 hexadecimal digits
     */
    CompletableFuture<HoldEnd> leaseEnd(String permitId);

    /**
     * Leases one permit for {@code leaseTime}, waiting as long as it takes.
     *
     * @param leaseTime how long the permit is leased, from when it is granted; at least one millisecond
     * @return the permit's id
     * @throws InterruptedException when interrupted while waiting (a permit granted meanwhile is given back; one
     *     granted just as the interrupt came is kept: its id is returned, and the thread keeps its interrupt status)
     * @throws IllegalArgumentException when {@code leaseTime} is null or below one millisecond
     */
    String acquire(Duration leaseTime) throws InterruptedException;

    /** @see #acquire(Duration) */
    String acquire(long leaseTime, TimeUnit unit) throws InterruptedException;

    /**
     * Leases one permit for {@code leaseTime}, waiting at most {@code waitTime}.
     *
     * @param waitTime how long to wait at most; zero or negative: a single try
     * @param leaseTime how long the permit is leased, from when it is granted; at least one millisecond
     * @return the permit's id, or null when none was free within the wait
     * @throws InterruptedException when interrupted while waiting (a permit granted meanwhile is given back; one
     *     granted just as the interrupt came is kept: its id is returned, and the thread keeps its interrupt status)
     * @throws IllegalArgumentException when {@code leaseTime} is null or below one millisecond
     */
    String tryAcquire(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /** @see #tryAcquire(Duration, Duration) */
    String tryAcquire(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;

    /**
     * Gives back the permit of {@code permitId} and wakes a waiter for it.
     *
     * @param permitId an id an acquisition returned
     * @throws IllegalArgumentException when {@code permitId} is not an id's 32 hexadecimal digits, or when no permit
     *     of that id is leased (given back already, never leased, or its lease ran out: a permit whose lease ran out
     *     but was not reclaimed yet is freed all the same); as Redisson's {@code release(id)} does
     */
    void release(String permitId);

    /**
     * Gives back the permit of {@code permitId}, if it is leased, and wakes a waiter for it.
     *
     * @param permitId an id an acquisition returned
     * @return true when the permit was leased and is given back; false when none of that id is leased (nothing
     *     changed) or its lease had run out (freed all the same)
     * @throws IllegalArgumentException when {@code permitId} is not an id's 32 hexadecimal digits
     */
    boolean tryRelease(String permitId);

    /**
     * Leases the permit of {@code permitId} anew, for {@code leaseTime} from now.
     *
     * @return true when the permit was leased; false when it was not (given back, never leased, or its lease ran out)
     * @throws IllegalArgumentException when {@code permitId} is not an id's 32 hexadecimal digits, or
     *     {@code leaseTime} is null or below one millisecond
     * @throws IllegalStateException when this client's watchdog keeps the permit (taken without a lease time)
     */
    boolean updateLeaseTime(String permitId, Duration leaseTime);

    /** @see #updateLeaseTime(String, Duration) */
    boolean updateLeaseTime(String permitId, long leaseTime, TimeUnit unit);

    /**
     * {@link #acquire(Duration)} without blocking: completes with the permit's id. Cancelling the future gives up the
     * wait (and gives back a permit granted meanwhile).
     */
    CompletableFuture<String> acquireAsync(Duration leaseTime);

    /** {@link #acquire()} without blocking. Cancelling the future gives up the wait. */
    CompletableFuture<String> acquireAsync();

    /** {@link #tryAcquire()} without blocking. */
    CompletableFuture<String> tryAcquireAsync();

    /** {@link #tryAcquire(Duration)} without blocking. Cancelling the future gives up the wait. */
    CompletableFuture<String> tryAcquireAsync(Duration waitTime);

    /**
     * {@link #tryAcquire(Duration, Duration)} without blocking. Cancelling the future gives up the wait (and gives back
     * a permit granted meanwhile).
     */
    CompletableFuture<String> tryAcquireAsync(Duration waitTime, Duration leaseTime);

    /** {@link #release(String)} without blocking: fails with {@link IllegalArgumentException} when none is leased. */
    CompletableFuture<Void> releaseAsync(String permitId);

    /** {@link #tryRelease(String)} without blocking. */
    CompletableFuture<Boolean> tryReleaseAsync(String permitId);

    /** {@link #updateLeaseTime(String, Duration)} without blocking. */
    CompletableFuture<Boolean> updateLeaseTimeAsync(String permitId, Duration leaseTime);
}
