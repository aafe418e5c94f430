package io.hasp.kotlin

import io.hasp.lock.HaspLock
import io.hasp.lock.LockOwner
import java.util.concurrent.CompletableFuture
import kotlin.coroutines.Continuation
import kotlin.coroutines.intrinsics.suspendCoroutineUninterceptedOrReturn
import kotlin.time.Duration.Companion.nanoseconds
import kotlinx.coroutines.delay

/**
 * Runs a compiled `suspend` function under a hasp lock, for integrations that wrap such functions without
 * knowing them at compile time: hasp-annotation's `@Locked` behind a proxy. Application code takes
 * [withLock] instead.
 *
 * From Java, [call] is called as the compiled form of a suspend function: with the caller's continuation
 * as its last argument, returning the value or `COROUTINE_SUSPENDED`.
 */
object LockedSuspendCalls {

    /** One attempt at the lock for an owner. */
    fun interface Attempt {
        /** Tries once for [owner]: a future of whether the lock is held. */
        fun tryOnce(owner: LockOwner): CompletableFuture<Boolean>
    }

    /** What comes after a failed attempt. */
    fun interface Retries {
        /** The pause in nanoseconds before the attempt after the [attempts]-th, or a negative value to stop. */
        fun pauseAfter(attempts: Int): Long
    }

    /** What a call whose lock could not be had returns, or throws. */
    fun interface Unavailable {
        /** The call's value after [attempts] failed attempts; may throw instead. */
        fun valueAfter(attempts: Int): Any?
    }

    /** The function's body, called with a continuation of its own. */
    fun interface Body {
        /** Calls the function with [continuation] as its last argument: its value or `COROUTINE_SUSPENDED`. */
        @Throws(Exception::class)
        fun call(continuation: Continuation<Any?>): Any?
    }

    /**
     * Takes [lock] for the calling coroutine's owner ([CoroutineLockOwner], or a new one for this call),
     * attempting as [attempt] and [retries] say, runs [body] holding it, and gives it back when the body
     * returns, throws or is cancelled. The body runs with that owner in its context, so a `withLock` or a
     * locked call of the same lock inside re-enters it. A coroutine cancelled while it waits stops waiting,
     * and a grant that arrived meanwhile is given back. When the attempts run out the call returns what
     * [unavailable] gives (or throws what it throws) and [body] does not run.
     */
    @JvmStatic
    suspend fun call(lock: HaspLock, attempt: Attempt, retries: Retries, unavailable: Unavailable, body: Body): Any? =
        withHolder { holder ->
            val owner = lock.owner(holder)
            var attempts = 0
            while (true) {
                attempts++
                if (acquire(attempt.tryOnce(owner), { it }) { lock.unlockAsync(owner) }) {
                    break
                }
                val pause = retries.pauseAfter(attempts)
                if (pause < 0) {
                    return@withHolder unavailable.valueAfter(attempts)
                }
                delay(pause.nanoseconds)
            }
            releasing({ lock.unlockAsync(owner) }) {
                suspendCoroutineUninterceptedOrReturn { continuation -> body.call(continuation) }
            }
        }
}
