package io.hasp.kotlin

import io.hasp.HaspClient
import io.hasp.testing.RedisServer
import io.hasp.testing.RedisServerExtension
import java.time.Duration
import java.util.concurrent.TimeoutException
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.extension.ExtendWith

/**
 * hasp's synchronizers for coroutines on a real redis-server: permits held for a block and given back on
 * return, exception and cancellation; a timed wait that runs out; the latch opens a suspended waiter.
 */
@ExtendWith(RedisServerExtension::class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CoroutineSynchronizersIT {

    private lateinit var client: HaspClient

    @BeforeAll
    fun start(server: RedisServer) {
        client = HaspClient.create(server.uri())
    }

    @AfterAll
    fun stop() {
        client.close()
    }

    private fun test(block: suspend CoroutineScope.() -> Unit) = runBlocking { withTimeout(60_000) { block() } }

    @Test
    fun twoPermitsLetTwoCoroutinesIn() = test {
        val semaphore = client.getSemaphore("kt:semaphore")
        assertTrue(semaphore.trySetPermits(2))
        val inside = AtomicInteger()
        val most = AtomicInteger()
        val go = CompletableDeferred<Unit>()
        val holders = List(3) {
            async(Dispatchers.Default) {
                semaphore.withPermits(1) {
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max)
                    if (inside.get() == 2) go.complete(Unit)
                    go.await()
                    inside.decrementAndGet()
                }
            }
        }
        holders.awaitAll()
        assertEquals(2, most.get(), "never more than the two permits' holders inside")
        assertEquals(2, semaphore.availablePermits())
    }

    @Test
    fun permitsComeBackOnExceptionCancellationAndTimeout() = test {
        val semaphore = client.getSemaphore("kt:semaphore:back")
        semaphore.trySetPermits(1)
        runCatching { semaphore.withPermits(1) { throw IllegalStateException("block failed") } }
        assertEquals(1, semaphore.availablePermits())
        val held = CompletableDeferred<Unit>()
        val holder = launch(Dispatchers.Default) {
            semaphore.withPermits(1) {
                held.complete(Unit)
                awaitCancellation()
            }
        }
        held.await()
        val thrown = runCatching { semaphore.withPermits(1, Duration.ofMillis(100)) { "late" } }.exceptionOrNull()
        assertTrue(thrown is TimeoutException, thrown.toString())
        assertFalse(semaphore.awaitTryAcquire(1))
        holder.cancelAndJoin()
        assertEquals(1, semaphore.availablePermits(), "given back before the cancelled holder completed")
    }

    @Test
    fun aPermitExpirableSemaphoreLeasesAPermitForTheBlock() = test {
        val semaphore = client.getPermitExpirableSemaphore("kt:expirable")
        semaphore.trySetPermits(1)
        val id = semaphore.withPermit(Duration.ofSeconds(10)) { permit ->
            assertEquals(0, semaphore.availablePermits())
            permit
        }
        assertTrue(id.isNotEmpty())
        assertEquals(1, semaphore.availablePermits())
    }

    @Test
    fun theLatchOpensASuspendedWaiter() = test {
        val latch = client.getCountDownLatch("kt:latch")
        assertTrue(latch.trySetCount(1))
        val waiter = async(Dispatchers.Default) { latch.awaitOpen() }
        assertFalse(latch.awaitOpen(Duration.ofMillis(50)))
        latch.awaitCountDown()
        waiter.await()
        assertTrue(latch.awaitOpen(Duration.ZERO))
    }
}
