package io.hasp.lock;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A reentrant lock whose every successful acquisition returns a <em>fencing token</em>: a number
 * strictly greater than every token issued before for this lock's name. The resource the lock
 * protects checks it, and refuses a write that carries a token lower than one it has already
 * seen. That is what makes a lease safe when its holder can pause (a long GC, a stalled VM, a
 * lost network) past the lease: the lock alone cannot stop a holder that does not know its lease
 * ran out, but the resource can refuse it, because the next holder wrote with a greater token.
 *
 * <pre>{@code
 * FencedLock lock = client.getFencedLock("stock:42");
 * long token = lock.lockAndGetToken();
 * try {
 *     // UPDATE stock SET qty = qty - 1, token = :token WHERE id = 42 AND token < :token
 *     // zero rows updated: a newer holder came in, so this one's lease had run out
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <p><b>Layout.</b> The lock is the reentrant lock's hash (so a fenced lock and a plain lock of
 * the same name exclude each other), and the tokens come from the counter
 * {@code redisson_lock_token:{<name>}}, which Redisson's {@code RFencedLock} uses too: hasp and
 * Redisson clients issue tokens from one sequence. Each acquisition, re-entries included, takes
 * the next token; an acquire re-sent after a lost reply takes none (it answers the token of the
 * acquisition it repeats).
 *
 * <p><b>What the token guarantees across a failover.</b> Redis replicates asynchronously. If the
 * master fails over before a replica received the last increments, the new master can issue a
 * token a second time, to another holder, just as it can grant the lock a second time: across
 * such a failover the token is no stronger than the lock itself. A resource that accepts only
 * tokens strictly greater than the last one it accepted still never accepts two writes carrying
 * one token, but it may refuse the rightful new holder until the counter passes the reissued
 * values. Waiting for a replica to acknowledge the increment before the token is handed out
 * would close that gap for a failover to the acknowledging replica; hasp has no such option yet.
 *
 * <p>The fenced lock and the plain lock of one name share their hash: one owner (a thread) must not
 * hold both at once, or the two would count one hold and the fenced acquisition would take no token.
 *
 * <p>Everything else is {@link HaspLock}: leases, the watchdog, {@link #holdEnd}, the async
 * twins. Same-client hand-over does not apply: every acquisition runs the acquire script, which
 * takes the token. Thread-safe, a cheap view like every lock.
 */
public interface FencedLock extends HaspLock {

    /**
     * Acquires the lock with the watchdog lease, waiting as long as needed (interrupts are
     * deferred until it is held), and returns this acquisition's token.
     */
    long lockAndGetToken();

    /**
     * Acquires the lock for {@code leaseTime} (never renewed), waiting as long as needed, and
     * returns this acquisition's token.
     */
    long lockAndGetToken(Duration leaseTime);

    /** Acquires the lock (watchdog lease) only if it is free now; its token, or empty. One round trip. */
    OptionalLong tryLockAndGetToken();

    /**
     * Acquires the lock for {@code leaseTime} (never renewed; -1 ms: the watchdog), waiting at most
     * {@code waitTime}; its token, or empty when the wait passed.
     *
     * @throws InterruptedException when interrupted while waiting (nothing is left held)
     */
    OptionalLong tryLockAndGetToken(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /** Like {@link #tryLockAndGetToken(Duration, Duration)}, in {@code unit}. */
    OptionalLong tryLockAndGetToken(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;

    /**
     * The token of the calling thread's current hold: the one its latest acquisition of this lock
     * got, while this client knows it holds the lock; empty otherwise.
     */
    OptionalLong getToken();

    /** Like {@link #getToken()} for the hold of {@code owner}. */
    OptionalLong getToken(LockOwner owner);

    /** Acquires the lock for {@code owner} with the watchdog lease; completes with the token once held. */
    CompletableFuture<Long> lockAndGetTokenAsync(LockOwner owner);

    /** Acquires the lock for {@code owner} for {@code leaseTime}; completes with the token once held. */
    CompletableFuture<Long> lockAndGetTokenAsync(Duration leaseTime, LockOwner owner);

    /**
     * Acquires the lock for {@code owner} for {@code leaseTime} (-1 ms: the watchdog), waiting at
     * most {@code waitTime}; completes with the token, or empty when the wait passed. Cancelling
     * the future cancels the wait and gives back a lock granted meanwhile.
     */
    CompletableFuture<OptionalLong> tryLockAndGetTokenAsync(Duration waitTime, Duration leaseTime, LockOwner owner);
}
