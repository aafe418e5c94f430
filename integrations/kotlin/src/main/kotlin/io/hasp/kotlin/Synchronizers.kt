@file:JvmName("HaspSynchronizers")

package io.hasp.kotlin

import io.hasp.sync.HaspCountDownLatch
import io.hasp.sync.HaspPermitExpirableSemaphore
import io.hasp.sync.HaspSemaphore
import java.time.Duration
import java.util.concurrent.TimeoutException
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext

/**
 * Runs [block] holding [permits] permits of this semaphore, waiting for them as long as needed, and gives
 * them back when [block] returns, throws or is cancelled. A coroutine cancelled while it waits stops
 * waiting, and permits granted meanwhile are given back. Permits have no owner.
 */
suspend fun <T> HaspSemaphore.withPermits(permits: Int = 1, block: suspend () -> T): T {
    awaitAcquire(permits)
    return releasing({ releaseAsync(permits) }, block)
}

/**
 * Like [withPermits], waiting at most [waitTime]: throws [TimeoutException] (and does not run [block])
 * when the permits were not had in time.
 */
suspend fun <T> HaspSemaphore.withPermits(permits: Int, waitTime: Duration, block: suspend () -> T): T {
    if (!awaitTryAcquire(permits, waitTime)) {
        throw TimeoutException("$permits permits of semaphore $name not acquired within $waitTime")
    }
    return releasing({ releaseAsync(permits) }, block)
}

/** Takes [permits] permits, waiting as long as needed. */
suspend fun HaspSemaphore.awaitAcquire(permits: Int = 1) {
    acquire(acquireAsync(permits), { true }) { releaseAsync(permits) }
}

/** Takes [permits] permits if they are had within [waitTime] (zero: one try); true when taken. */
suspend fun HaspSemaphore.awaitTryAcquire(permits: Int = 1, waitTime: Duration = Duration.ZERO): Boolean =
    acquire(tryAcquireAsync(permits, waitTime), { it }) { releaseAsync(permits) }

/** Gives [permits] permits back (or adds them); not cancellable. */
suspend fun HaspSemaphore.awaitRelease(permits: Int = 1) {
    withContext(NonCancellable) { releaseAsync(permits).await() }
}

/**
 * Runs [block] with the id of a permit of this semaphore, held for [leaseTime] (null: kept by the
 * watchdog) until [block] returns, throws or is cancelled; waits for the permit as long as needed.
 */
suspend fun <T> HaspPermitExpirableSemaphore.withPermit(leaseTime: Duration? = null, block: suspend (String) -> T): T {
    val id = acquire(if (leaseTime == null) acquireAsync() else acquireAsync(leaseTime), { true }) { permit ->
        releaseAsync(permit)
    }
    return releasing({ releaseAsync(id) }) { block(id) }
}

/** Completes when this latch is open, waiting as long as needed. Named so, since `await()` is the blocking member. */
suspend fun HaspCountDownLatch.awaitOpen() {
    awaitAsync().await()
}

/** Whether this latch opened within [waitTime]. */
suspend fun HaspCountDownLatch.awaitOpen(waitTime: Duration): Boolean = awaitAsync(waitTime).await()

/** Counts this latch down by one. */
suspend fun HaspCountDownLatch.awaitCountDown() {
    countDownAsync().await()
}
