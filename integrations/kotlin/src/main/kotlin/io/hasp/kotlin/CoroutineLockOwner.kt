@file:JvmName("CoroutineLockOwners")

package io.hasp.kotlin

import io.hasp.lock.HaspLock
import io.hasp.lock.LockOwner
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.coroutines.coroutineContext
import kotlinx.coroutines.CopyableThreadContextElement
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.DelicateCoroutinesApi
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.withContext

/**
 * The owner of a coroutine's hasp locks: a holder id carried in the coroutine context, so that it
 * follows the coroutine across threads and dispatchers instead of staying with a thread. Every lock of
 * every client takes the same holder id from it (with its client's id: `HaspLock.owner(holderId)`).
 *
 * It stays with the coroutine through `withContext` and `coroutineScope`: the same flow of control,
 * so `withLock` inside re-enters a lock held outside. A coroutine started inside (`launch`, `async`)
 * runs concurrently with its parent and is another owner: it gets a holder id of its own, and waits
 * for a lock its parent holds. To have a child act as the same owner, ask for it:
 * `launch(sameLockOwner()) { ... }` (the two must then not use one lock at the same time).
 *
 * An owner made with [create] or [of] and put in a `CoroutineScope(...)`'s context is handed as it is to
 * every coroutine launched from that scope: they all act as that one owner, and re-enter each other's
 * locks instead of waiting. Leave it out of scopes: `withLock` gives each coroutine an owner of its own.
 *
 * Holder ids come from [LockOwner.newHolderId]: never a thread's id, so a blocking caller of the same
 * client is always another owner.
 */
@OptIn(ExperimentalCoroutinesApi::class, DelicateCoroutinesApi::class)
class CoroutineLockOwner private constructor(
    /** The holder id. */
    val holderId: Long,
    /** Whether this element is in a running coroutine's context (else it is on its way in). */
    private val installed: Boolean,
) : AbstractCoroutineContextElement(Key), CopyableThreadContextElement<Unit> {

    /** The key of the element in a coroutine context. */
    companion object Key : CoroutineContext.Key<CoroutineLockOwner> {
        /** An owner with the holder id [holderId], to put in a coroutine's context. */
        fun of(holderId: Long): CoroutineLockOwner = CoroutineLockOwner(holderId, false)

        /** A new owner, to put in a coroutine's context. */
        fun create(): CoroutineLockOwner = of(LockOwner.newHolderId())
    }

    /** This owner of [lock]'s client. */
    fun ownerOf(lock: HaspLock): LockOwner = lock.owner(holderId)

    /** Nothing to set on the thread: the owner lives in the context. */
    override fun updateThreadContext(context: CoroutineContext) {}

    /** Nothing to restore. */
    override fun restoreThreadContext(context: CoroutineContext, oldState: Unit) {}

    /**
     * Called when an element joins a new coroutine's context: an owner on its way in keeps its id;
     * a running coroutine's owner passed on to a child (`launch`, `async`) gives the child a new id.
     */
    override fun copyForChild(): CopyableThreadContextElement<Unit> =
        if (installed) CoroutineLockOwner(LockOwner.newHolderId(), true) else CoroutineLockOwner(holderId, true)

    /** An owner given explicitly to a child wins over the parent's. */
    override fun mergeForChild(overwritingElement: CoroutineContext.Element): CoroutineContext {
        val given = overwritingElement as CoroutineLockOwner
        return if (given.installed) given else CoroutineLockOwner(given.holderId, true)
    }

    override fun toString(): String = "CoroutineLockOwner($holderId)"
}

/** The calling coroutine's lock owner, or null outside [withLockOwner] and `withLock`. */
suspend fun currentLockOwner(): CoroutineLockOwner? = coroutineContext[CoroutineLockOwner]

/**
 * The calling coroutine's lock owner as a context to start a child with, so that the child acts as the
 * same owner: `launch(sameLockOwner()) { lock.withLock { ... } }` re-enters a lock this coroutine holds.
 * Empty outside [withLockOwner] and `withLock`.
 */
suspend fun sameLockOwner(): CoroutineContext =
    coroutineContext[CoroutineLockOwner]?.let { CoroutineLockOwner.of(it.holderId) } ?: EmptyCoroutineContext

/**
 * Runs [block] as a lock owner: the calling coroutine's, or a new one when it has none. `awaitLock` and
 * `awaitUnlock` need one; `withLock` makes one by itself.
 */
suspend fun <T> withLockOwner(block: suspend CoroutineScope.() -> T): T =
    if (coroutineContext[CoroutineLockOwner] != null) {
        coroutineScope(block)
    } else {
        withContext(CoroutineLockOwner.create(), block)
    }

/** The calling coroutine's owner of [lock], or [IllegalStateException] when it has none. */
internal suspend fun requireOwner(lock: HaspLock): LockOwner =
    (coroutineContext[CoroutineLockOwner] ?: throw IllegalStateException(
        "this coroutine has no lock owner: call awaitLock() and awaitUnlock() inside withLockOwner { }, " +
            "or use withLock { }, which makes one itself",
    )).ownerOf(lock)
