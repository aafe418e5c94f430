package io.hasp.kotlin

import java.util.concurrent.CompletableFuture
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.Job
import kotlinx.coroutines.ThreadContextElement

/**
 * Tells when a coroutine has ended, for integrations that hand a function's work to a framework which runs it as a
 * coroutine of its own (Spring AOP runs a suspend function as a `Mono`): put it in the context that coroutine is
 * started with, and [afterEnd] completes once it has ended, so that a lock goes back after the work has stopped,
 * not as soon as its subscriber cancels (a cancelled coroutine runs on to its next suspension point, and through
 * its `finally` blocks). Not for application code.
 */
class CoroutineEnd : AbstractCoroutineContextElement(Key), ThreadContextElement<Unit> {

    /** The key of the element in a coroutine context. */
    companion object Key : CoroutineContext.Key<CoroutineEnd>

    private val ended = CompletableFuture<Void>()

    /** Whether a coroutine is watched, or the end was given out before any ran; guarded by this. */
    private var settled = false

    /** The first coroutine to run with this element is the one watched. */
    override fun updateThreadContext(context: CoroutineContext) {
        val job = context[Job] ?: return
        synchronized(this) {
            if (settled) {
                return
            }
            settled = true
        }
        job.invokeOnCompletion { ended.complete(null) }
    }

    /** Nothing to restore. */
    override fun restoreThreadContext(context: CoroutineContext, oldState: Unit) {}

    /**
     * A future completed once the coroutine that ran with this element has ended; completed at once when none has
     * run yet (then none runs its code: it was cancelled before it started).
     */
    fun afterEnd(): CompletableFuture<Void> {
        synchronized(this) {
            if (!settled) {
                settled = true
                ended.complete(null)
            }
        }
        return ended
    }
}
