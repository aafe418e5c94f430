package io.hasp.kotlin

import io.hasp.HaspClient
import io.hasp.HaspConfig
import io.hasp.lock.MultiLock
import io.hasp.lock.rw.HaspReadWriteLocks
import io.hasp.testing.Conditions
import io.hasp.testing.RedisProbe
import io.hasp.testing.RedisServer
import io.hasp.testing.RedisServerExtension
import java.time.Duration
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.extension.ExtendWith

/**
 * hasp's locks for coroutines on a real redis-server: the coroutine is the owner (re-entry across
 * `withContext(Dispatchers.IO)`, a child coroutine another owner unless asked, another coroutine and a
 * blocking caller of the same client excluded), the lock is given back on return, exception and
 * cancellation, a cancelled wait takes nothing, and the watchdog keeps a long block's lock.
 */
@ExtendWith(RedisServerExtension::class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CoroutineLockIT {

    private lateinit var server: RedisServer
    private lateinit var client: HaspClient
    private lateinit var elsewhere: HaspClient
    private lateinit var probe: RedisProbe

    @BeforeAll
    fun start(server: RedisServer) {
        this.server = server
        client = HaspClient.create(server.uri())
        elsewhere = HaspClient.create(server.uri())
        probe = server.probe()
    }

    @AfterAll
    fun stop() {
        client.close()
        elsewhere.close()
        probe.close()
    }

    private fun exists(key: String): Long = probe.call("EXISTS", key) as Long

    private fun test(block: suspend CoroutineScope.() -> Unit) =
        runBlocking { withTimeout(60_000) { block() } }

    @Test
    fun aNestedWithLockReentersAfterWithContext() = test {
        val lock = client.getLock("kt:reenter")
        val threads = mutableListOf<String>()
        val inner = lock.withLock {
            threads += Thread.currentThread().name
            withContext(Dispatchers.IO) {
                lock.withLock {
                    threads += Thread.currentThread().name
                    lock.awaitHoldCount()
                }
            }
        }
        assertEquals(2, inner)
        assertNotEquals(threads[0], threads[1], "the inner block ran on another thread")
        assertEquals(0L, exists("kt:reenter"))
    }

    @Test
    fun theDocsSampleReentersAcrossDispatchers() = test {
        val stock = AtomicInteger(10)
        // begin-sample: kotlin-with-lock
        val lock = client.getLock("stock:sku-42")
        val left = lock.withLock {
            val reserved = withContext(Dispatchers.IO) {
                lock.withLock { stock.decrementAndGet() } // the same owner: re-entered
            }
            reserved
        }
        // end-sample: kotlin-with-lock
        assertEquals(9, left)
        assertEquals(0L, exists("stock:sku-42"))
    }

    @Test
    fun aChildCoroutineIsAnotherOwnerUnlessAsked() = test {
        val lock = client.getLock("kt:child")
        lock.withLock {
            val child = async(Dispatchers.Default) { withLockOwner { lock.awaitTryLock() } }.await()
            assertFalse(child, "a launched child waits for its parent's lock")
            // begin-sample: kotlin-same-owner
            val asked = async(Dispatchers.Default + sameLockOwner()) { lock.withLock { lock.awaitHoldCount() } }.await()
            // end-sample: kotlin-same-owner
            assertEquals(2, asked, "a child started with sameLockOwner() re-enters")
            assertFalse(client.getLock("kt:child").tryLock(), "a thread of the same client is another owner")
        }
        assertEquals(0L, exists("kt:child"))
    }

    @Test
    fun coroutinesOnManyThreadsKeepACounterExact() = test {
        val lock = client.getLock("kt:counter")
        val counter = AtomicInteger()
        coroutineScope {
            repeat(8) {
                launch(Dispatchers.Default) {
                    repeat(25) {
                        lock.withLock {
                            val seen = counter.get()
                            delay(1)
                            withContext(Dispatchers.IO) { yield() }
                            counter.set(seen + 1)
                        }
                    }
                }
            }
        }
        assertEquals(200, counter.get(), "read, a hop to other threads, write: exact only under the lock")
        assertEquals(0L, exists("kt:counter"))
    }

    @Test
    fun anExceptionOfTheBlockGivesTheLockBack() = test {
        val lock = client.getLock("kt:error")
        val thrown = runCatching { lock.withLock { throw IllegalStateException("block failed") } }.exceptionOrNull()
        assertEquals("block failed", thrown?.message)
        assertEquals(0L, exists("kt:error"))
    }

    @Test
    fun cancellingAHoldingCoroutineGivesTheLockBack() = test {
        val lock = client.getLock("kt:cancel-held")
        val held = CompletableDeferred<Unit>()
        val holder = launch(Dispatchers.Default) {
            lock.withLock {
                held.complete(Unit)
                awaitCancellation()
            }
        }
        held.await()
        assertEquals(1L, exists("kt:cancel-held"))
        holder.cancelAndJoin()
        assertEquals(0L, exists("kt:cancel-held"), "released before the cancelled coroutine completed")
    }

    @Test
    fun aCancelledWaitTakesNothingWhenTheLockIsFreed() = test {
        val name = "kt:cancel-wait"
        val other = elsewhere.getLock(name)
        other.lock()
        val ran = AtomicBoolean()
        val waiting = launch(Dispatchers.Default) { client.getLock(name).withLock { ran.set(true) } }
        try {
            assertTrue(
                Conditions.await(Duration.ofSeconds(20)) { (probe.call("PUBSUB", "CHANNELS", "*$name*") as List<*>).isNotEmpty() },
                "the coroutine waits on the lock's channels",
            )
            waiting.cancelAndJoin()
        } finally {
            other.unlock()
        }
        val third = elsewhere.getLock(name)
        assertTrue(third.tryLock(10, TimeUnit.SECONDS), "the cancelled waiter did not take the freed lock")
        third.unlock()
        assertFalse(ran.get())
        assertEquals(0, client.heldLocks())
    }

    @Test
    fun aTimedWithLockThrowsWhenTheLockStaysTaken() = test {
        val name = "kt:timed"
        val other = elsewhere.getLock(name)
        other.lock()
        try {
            val thrown = runCatching { client.getLock(name).withLock(Duration.ofMillis(100)) { "late" } }.exceptionOrNull()
            assertTrue(thrown is TimeoutException && thrown.message!!.contains(name), thrown.toString())
        } finally {
            other.unlock()
        }
        assertEquals("free", client.getLock(name).withLock(Duration.ofSeconds(5)) { "free" })
    }

    @Test
    fun theWatchdogKeepsALongBlocksLock() = test {
        HaspClient.create(HaspConfig.builder().uri(server.uri()).watchdogLease(Duration.ofSeconds(1)).build()).use { shortLeases ->
            val lock = shortLeases.getLock("kt:watchdog")
            val stillHeld = lock.withLock {
                delay(3_500)
                lock.awaitHoldCount()
            }
            assertEquals(1, stillHeld, "held after three and a half leases")
        }
        assertEquals(0L, exists("kt:watchdog"))
    }

    @Test
    fun lockAndUnlockNeedAnOwner() = test {
        val lock = client.getLock("kt:owner")
        assertNull(currentLockOwner())
        val thrown = runCatching { lock.awaitLock() }.exceptionOrNull()
        assertTrue(thrown is IllegalStateException && thrown.message!!.contains("withLockOwner"), thrown.toString())
        val count = withLockOwner {
            lock.awaitLock()
            lock.awaitLock()
            val held = lock.awaitHoldCount()
            lock.awaitUnlock()
            lock.awaitUnlock()
            held
        }
        assertEquals(2, count)
        val unheld = runCatching { withLockOwner { lock.awaitUnlock() } }.exceptionOrNull()
        assertTrue(unheld is IllegalMonitorStateException, unheld.toString())
        val owners = List(2) { withLockOwner { currentLockOwner()!!.holderId } }
        assertNotEquals(owners[0], owners[1], "each withLockOwner outside an owner is a new one")
        assertTrue(owners.all { it < 0 }, "never a thread's id")
    }

    @Test
    fun fencedMultiAndReadWriteLocks() = test {
        val fenced = client.getFencedLock("kt:fenced")
        val first = fenced.withToken { it }
        val second = fenced.withToken { it }
        assertTrue(second > first, "$first then $second")
        val both = MultiLock.of(client.getLock("kt:multi:a"), client.getLock("kt:multi:b"))
        assertEquals(2L, both.withLock { exists("kt:multi:a") + exists("kt:multi:b") })
        assertEquals(0L, exists("kt:multi:a") + exists("kt:multi:b"))
        val rw = HaspReadWriteLocks.get(client, "kt:rw")
        val inside = AtomicInteger()
        val bothIn = CompletableDeferred<Unit>()
        val readers = List(2) {
            async(Dispatchers.Default) {
                rw.readLock().withLock {
                    if (inside.incrementAndGet() == 2) bothIn.complete(Unit)
                    bothIn.await() // both readers hold the read lock at once
                    1
                }
            }
        }
        assertEquals(2, readers.sumOf { it.await() })
    }
}
