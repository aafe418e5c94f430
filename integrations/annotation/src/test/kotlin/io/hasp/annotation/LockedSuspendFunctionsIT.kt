package io.hasp.annotation

import io.hasp.HaspClient
import io.hasp.kotlin.awaitHoldCount
import io.hasp.kotlin.withLock
import io.hasp.testing.Conditions
import io.hasp.testing.RedisProbe
import io.hasp.testing.RedisServer
import io.hasp.testing.RedisServerExtension
import java.time.Duration
import java.util.Collections
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.Continuation
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Deferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.extension.ExtendWith

/**
 * `@Locked` Kotlin suspend functions behind [LockedProxies] on a real redis-server: the lock is held until
 * the function's work ends, not its first suspension; the calling coroutine is the owner (a nested locked
 * call and a `withLock` re-enter, a child coroutine and another coroutine wait); the lock goes back on
 * return, exception and cancellation; a cancelled wait takes nothing; skipped and refused calls.
 */
@ExtendWith(RedisServerExtension::class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockedSuspendFunctionsIT {

    interface Reports {
        @Locked(value = "report", waitTime = 20_000, retryCount = 0)
        suspend fun build(@LockKey id: Int, events: MutableList<String>, pause: Long): String

        @Locked(value = "counter", waitTime = 20_000, retryCount = 0)
        suspend fun increment(counter: AtomicInteger)

        @Locked(value = "nested", waitTime = 0, retryCount = 1, retryInterval = 1)
        suspend fun outer(): Int

        @Locked(value = "nested", waitTime = 0, retryCount = 1, retryInterval = 1)
        suspend fun inner(): Int

        @Locked("failing")
        suspend fun fail(): String

        @Locked(value = "held", waitTime = 20_000, retryCount = 0)
        suspend fun hold(held: CompletableDeferred<Unit>)

        @Locked(value = "waited", waitTime = 20_000, retryCount = 0)
        suspend fun runOnce(ran: AtomicBoolean)

        @Locked(value = "busy", waitTime = 0, retryCount = 2, retryInterval = 1, whenUnavailable = WhenUnavailable.SKIP)
        suspend fun skipValue(): String?

        @Locked(value = "busy", waitTime = 0, retryCount = 2, retryInterval = 1, whenUnavailable = WhenUnavailable.SKIP)
        suspend fun skipUnit()

        @Locked(value = "busy", waitTime = 0, retryCount = 2, retryInterval = 1)
        suspend fun refuse(): String

        @Locked("direct")
        suspend fun direct(): String
    }

    interface Streams {
        @Locked("stream")
        suspend fun numbers(): Flow<Int>
    }

    interface PlainStreams {
        @Locked("stream")
        fun numbers(): Flow<Int>
    }

    interface Launches {
        @Locked("launched")
        suspend fun start(): Deferred<Int>
    }

    interface CleaningUp {
        @Locked(value = "cleanup", waitTime = 20_000, retryCount = 0)
        suspend fun holdThenCleanUp(held: CompletableDeferred<Unit>, events: MutableList<String>)

        @Locked(value = "cleanup", waitTime = 20_000, retryCount = 0)
        suspend fun next(events: MutableList<String>)
    }

    private inner class DbReports : Reports {
        override suspend fun build(id: Int, events: MutableList<String>, pause: Long): String {
            events += "start $id"
            delay(pause)
            withContext(Dispatchers.IO) { yield() }
            events += "end $id"
            return "report $id"
        }

        override suspend fun increment(counter: AtomicInteger) {
            val seen = counter.get()
            delay(1)
            withContext(Dispatchers.IO) { yield() }
            counter.set(seen + 1)
        }

        override suspend fun outer(): Int = withContext(Dispatchers.IO) { reports.inner() + 1 }

        override suspend fun inner(): Int = client.getLock("nested").awaitHoldCount()

        override suspend fun fail(): String {
            delay(1)
            throw IllegalStateException("report failed")
        }

        override suspend fun hold(held: CompletableDeferred<Unit>) {
            held.complete(Unit)
            awaitCancellation()
        }

        override suspend fun runOnce(ran: AtomicBoolean) {
            ran.set(true)
        }

        override suspend fun skipValue(): String? = "ran"

        override suspend fun skipUnit() {}

        override suspend fun refuse(): String = "ran"

        override suspend fun direct(): String = "no suspension"
    }

    private lateinit var client: HaspClient
    private lateinit var elsewhere: HaspClient
    private lateinit var probe: RedisProbe
    private lateinit var reports: Reports

    @BeforeAll
    fun start(server: RedisServer) {
        client = HaspClient.create(server.uri())
        elsewhere = HaspClient.create(server.uri())
        probe = server.probe()
        reports = LockedProxies.create(Reports::class.java, DbReports(), LockTemplate(client))
    }

    @AfterAll
    fun stop() {
        client.close()
        elsewhere.close()
        probe.close()
    }

    private fun exists(key: String): Long = probe.call("EXISTS", key) as Long

    private fun test(block: suspend CoroutineScope.() -> Unit) = runBlocking { withTimeout(60_000) { block() } }

    @Test
    fun aSecondCallerWaitsForTheWorkOfTheFirstNotItsFirstSuspension() = test {
        val events = Collections.synchronizedList(mutableListOf<String>())
        val first = async(Dispatchers.Default) { reports.build(7, events, 500) }
        assertTrue(Conditions.await(Duration.ofSeconds(20)) { events.isNotEmpty() })
        val second = async(Dispatchers.Default) { reports.build(7, events, 0) }
        assertEquals("report 7", first.await())
        assertEquals("report 7", second.await())
        assertEquals(listOf("start 7", "end 7", "start 7", "end 7"), events)
        assertEquals(0L, exists("report:7"))
    }

    @Test
    fun coroutinesOnManyThreadsKeepACounterExact() = test {
        val counter = AtomicInteger()
        coroutineScope {
            repeat(8) {
                launch(Dispatchers.Default) { repeat(25) { reports.increment(counter) } }
            }
        }
        assertEquals(200, counter.get(), "read, a hop to other threads, write: exact only under the lock")
        assertEquals(0L, exists("counter"))
    }

    @Test
    fun aLockedCallInsideAnotherReentersAsTheSameCoroutine() = test {
        assertEquals(3, reports.outer(), "inner held the lock twice: the outer call's hold and its own")
        assertEquals(2, client.getLock("nested").withLock { reports.inner() }, "withLock, then the call, re-entered")
        assertEquals(0L, exists("nested"))
    }

    @Test
    fun aChildCoroutineIsAnotherOwner() = test {
        val thrown = client.getLock("nested").withLock {
            coroutineScope { async { runCatching { reports.inner() }.exceptionOrNull() }.await() }
        }
        assertTrue(thrown is LockUnavailableException && thrown.lockName() == "nested", thrown.toString())
        assertEquals(0L, exists("nested"))
    }

    @Test
    fun anExceptionGoesOutUnchangedAndGivesTheLockBack() = test {
        val thrown = runCatching { reports.fail() }.exceptionOrNull()
        assertTrue(thrown is IllegalStateException && thrown.message == "report failed", thrown.toString())
        assertEquals(0L, exists("failing"))
    }

    @Test
    fun cancellingAHoldingCallGivesTheLockBack() = test {
        val held = CompletableDeferred<Unit>()
        val holder = launch(Dispatchers.Default) { reports.hold(held) }
        held.await()
        assertEquals(1L, exists("held"))
        holder.cancelAndJoin()
        assertEquals(0L, exists("held"), "released before the cancelled coroutine completed")
    }

    @Test
    fun aCancelledWaitTakesNothingWhenTheLockIsFreed() = test {
        val other = elsewhere.getLock("waited")
        other.lock()
        val ran = AtomicBoolean()
        val waiting = launch(Dispatchers.Default) { reports.runOnce(ran) }
        try {
            assertTrue(
                Conditions.await(Duration.ofSeconds(20)) { (probe.call("PUBSUB", "CHANNELS", "*waited*") as List<*>).isNotEmpty() },
                "the call waits on the lock's channels",
            )
            waiting.cancelAndJoin()
        } finally {
            other.unlock()
        }
        val third = elsewhere.getLock("waited")
        assertTrue(third.tryLock(10, TimeUnit.SECONDS), "the cancelled call did not take the freed lock")
        third.unlock()
        assertFalse(ran.get())
        assertEquals(0, client.heldLocks())
    }

    @Test
    fun aCallThatCannotHaveItsLockIsSkippedOrRefused() = test {
        val other = elsewhere.getLock("busy")
        other.lock()
        try {
            assertNull(reports.skipValue())
            reports.skipUnit()
            assertSame(Unit, SuspendCalls.skippedValue(Reports::class.java.getMethod("skipUnit", Continuation::class.java)))
            val thrown = runCatching { reports.refuse() }.exceptionOrNull()
            assertTrue(thrown is LockUnavailableException && thrown.attempts() == 3, thrown.toString())
        } finally {
            other.unlock()
        }
        assertEquals("ran", reports.skipValue())
    }

    @Test
    fun aFlowWhoseCollectionWouldOutliveTheLockIsRefusedAtStartup() {
        val suspending = runCatching {
            LockedProxies.create(Streams::class.java, object : Streams {
                override suspend fun numbers(): Flow<Int> = flowOf(1)
            }, LockTemplate(client))
        }.exceptionOrNull()
        assertTrue(suspending is IllegalArgumentException && suspending.message!!.startsWith("Streams.numbers(Continuation)")
            && suspending.message!!.contains("kotlinx.coroutines.flow.Flow"), suspending.toString())
        val plain = runCatching {
            LockedProxies.create(PlainStreams::class.java, object : PlainStreams {
                override fun numbers(): Flow<Int> = flowOf(1)
            }, LockTemplate(client))
        }.exceptionOrNull()
        assertTrue(plain is IllegalArgumentException && plain.message!!.contains("would outlive the lock"), plain.toString())
        val deferred = runCatching {
            LockedProxies.create(Launches::class.java, object : Launches {
                override suspend fun start(): Deferred<Int> = CompletableDeferred(1)
            }, LockTemplate(client))
        }.exceptionOrNull()
        assertTrue(deferred is IllegalArgumentException && deferred.message!!.contains("kotlinx.coroutines.Deferred")
            && deferred.message!!.contains("would outlive the lock"), deferred.toString())
    }

    @Test
    fun aCancelledCallGivesTheLockBackOnlyOnceItsWorkHasStopped() = test {
        val cleaning = LockedProxies.create(CleaningUp::class.java, object : CleaningUp {
            override suspend fun holdThenCleanUp(held: CompletableDeferred<Unit>, events: MutableList<String>) {
                try {
                    held.complete(Unit)
                    awaitCancellation()
                } finally {
                    withContext(NonCancellable) {
                        delay(300)
                        events += "cleaned up"
                    }
                }
            }

            override suspend fun next(events: MutableList<String>) {
                events += "next"
            }
        }, LockTemplate(client))
        val events = Collections.synchronizedList(mutableListOf<String>())
        val held = CompletableDeferred<Unit>()
        val holder = launch(Dispatchers.Default) { cleaning.holdThenCleanUp(held, events) }
        held.await()
        holder.cancel()
        cleaning.next(events)
        assertEquals(listOf("cleaned up", "next"), events, "the next caller came in after the cancelled call's finally")
        assertEquals(0L, exists("cleanup"))
    }

    @Test
    fun aFunctionThatDoesNotSuspendReturnsItsValue() = test {
        assertEquals("no suspension", reports.direct())
        assertEquals(0L, exists("direct"))
    }
}
