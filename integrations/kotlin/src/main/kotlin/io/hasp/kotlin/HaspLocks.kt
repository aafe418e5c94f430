@file:JvmName("HaspLocks")

package io.hasp.kotlin

import io.hasp.lock.FencedLock
import io.hasp.lock.HaspLock
import io.hasp.lock.MultiLock
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeoutException
import kotlin.coroutines.coroutineContext
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext

/**
 * Runs [block] holding this lock (watchdog lease), waiting as long as needed, and gives it back when
 * [block] returns, throws or is cancelled. The owner is the calling coroutine's ([CoroutineLockOwner]),
 * or a new one: a `withLock` on the same lock inside [block] re-enters it, also after
 * `withContext(Dispatchers.IO)`, while another coroutine, a child coroutine included, waits.
 * A coroutine cancelled while it waits stops waiting, and a lock granted meanwhile is given back.
 *
 * A failed release (the hold had ended: its lease ran out during [block]) throws after a [block] that
 * returned, and is added as suppressed to the exception of a [block] that threw.
 */
suspend fun <T> HaspLock.withLock(block: suspend () -> T): T = withHolder { holder ->
    val owner = owner(holder)
    acquire(lockAsync(owner), { true }) { unlockAsync(owner) }
    releasing({ unlockAsync(owner) }, block)
}

/**
 * Like [withLock], waiting at most [waitTime]: throws [TimeoutException] (and does not run [block]) when
 * the lock was not had in time.
 */
suspend fun <T> HaspLock.withLock(waitTime: Duration, block: suspend () -> T): T = withHolder { holder ->
    val owner = owner(holder)
    if (!acquire(tryLockAsync(waitTime, owner), { it }) { unlockAsync(owner) }) {
        throw TimeoutException("lock $name not acquired within $waitTime")
    }
    releasing({ unlockAsync(owner) }, block)
}

/** Acquires this lock for the coroutine's owner (watchdog lease), waiting as long as needed. */
suspend fun HaspLock.awaitLock() {
    val owner = requireOwner(this)
    acquire(lockAsync(owner), { true }) { unlockAsync(owner) }
}

/** Acquires this lock for the coroutine's owner for [leaseTime] (never renewed), waiting as long as needed. */
suspend fun HaspLock.awaitLock(leaseTime: Duration) {
    val owner = requireOwner(this)
    acquire(lockAsync(leaseTime, owner), { true }) { unlockAsync(owner) }
}

/**
 * Acquires this lock for the coroutine's owner if it becomes free within [waitTime] (zero: one attempt),
 * for [leaseTime] (null: the watchdog); true when held.
 */
suspend fun HaspLock.awaitTryLock(waitTime: Duration = Duration.ZERO, leaseTime: Duration? = null): Boolean {
    val owner = requireOwner(this)
    val attempt = if (leaseTime == null) tryLockAsync(waitTime, owner) else tryLockAsync(waitTime, leaseTime, owner)
    return acquire(attempt, { it }) { unlockAsync(owner) }
}

/**
 * Gives back one hold of the coroutine's owner; throws [IllegalMonitorStateException] when it holds none.
 * Not cancellable: a cancelled caller still waits for the answer.
 */
suspend fun HaspLock.awaitUnlock() {
    val owner = requireOwner(this)
    withContext(NonCancellable) { unlockAsync(owner).await() }
}

/** The coroutine's owner's hold count of this lock (0 when it holds none, or has no owner). */
suspend fun HaspLock.awaitHoldCount(): Int {
    val holder = coroutineContext[CoroutineLockOwner] ?: return 0
    return getHoldCountAsync(holder.ownerOf(this)).await()
}

/**
 * Runs [block] with this acquisition's fencing token, holding the lock (watchdog lease) as [withLock]
 * does; the block hands the token to the storage it writes.
 */
suspend fun <T> FencedLock.withToken(block: suspend (Long) -> T): T = withHolder { holder ->
    val owner = owner(holder)
    val token = acquire(lockAndGetTokenAsync(owner), { true }) { unlockAsync(owner) }
    releasing({ unlockAsync(owner) }) { block(token) }
}

/** Runs [block] holding every member of this multi-lock (watchdog leases), as [withLock] does for one lock. */
suspend fun <T> MultiLock.withLock(block: suspend () -> T): T = withHolder { holder ->
    acquire(lockAsync(holder), { true }) { unlockAsync(holder) }
    releasing({ unlockAsync(holder) }, block)
}

/** Runs [call] with the coroutine's holder id, as a new owner when it has none. */
internal suspend fun <T> withHolder(call: suspend (Long) -> T): T {
    val given = coroutineContext[CoroutineLockOwner]
    if (given != null) {
        return call(given.holderId)
    }
    val created = CoroutineLockOwner.create()
    return withContext(created) { call(created.holderId) }
}

/** Runs [block], then [release] whatever happened, not cancellably. */
internal suspend fun <T> releasing(release: () -> CompletableFuture<Void>, block: suspend () -> T): T {
    val result = try {
        block()
    } catch (failure: Throwable) {
        try {
            withContext(NonCancellable) { release().await() }
        } catch (releaseFailure: Throwable) {
            failure.addSuppressed(releaseFailure)
        }
        throw failure
    }
    withContext(NonCancellable) { release().await() }
    return result
}

/**
 * Waits for an acquisition. When the coroutine is cancelled meanwhile, the future is cancelled (hasp
 * then gives back a lock granted concurrently); when it had already completed, a value that means held
 * is given back here, since the caller never sees it.
 */
internal suspend fun <T> acquire(future: CompletableFuture<T>, held: (T) -> Boolean, giveBack: (T) -> Unit): T {
    try {
        return future.await()
    } catch (cancelled: CancellationException) {
        if (!future.cancel(false) && future.isDone && !future.isCompletedExceptionally) {
            val value = future.join()
            if (held(value)) {
                giveBack(value)
            }
        }
        throw cancelled
    }
}
