package io.hasp.spring

import io.hasp.HaspClient
import io.hasp.annotation.LockUnavailableException
import io.hasp.annotation.Locked
import io.hasp.annotation.WhenUnavailable
import io.hasp.kotlin.awaitHoldCount
import io.hasp.kotlin.withLock
import io.hasp.testing.Conditions
import io.hasp.testing.RedisProbe
import io.hasp.testing.RedisServer
import io.hasp.testing.RedisServerExtension
import java.time.Duration
import java.util.Collections
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
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
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.extension.ExtendWith
import org.springframework.context.annotation.AnnotationConfigApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration

/**
 * `@Locked` Kotlin suspend functions of a Spring bean, on a real redis-server. kotlinx-coroutines-reactor is
 * on this module's test class path, so Spring AOP runs each call as a `Mono` before the advice sees it: the
 * lock is held until the function's work ends, the calling coroutine is the owner (nested calls and
 * `withLock` re-enter, a child coroutine waits), and the lock goes back on exception and cancellation.
 */
@ExtendWith(RedisServerExtension::class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockedSuspendAspectIT {

    /** The application's service: an open class, proxied by Spring for its @Locked functions. */
    open class Stock(private val client: HaspClient) {
        private lateinit var self: Stock

        /** Hands the service its own proxy, through which its locked functions call each other. */
        open fun wire(proxy: Stock) {
            self = proxy
        }

        // begin-sample: locked-suspend
        /** Lock "stock:<sku>" is held until the function returns, across its suspensions and threads. */
        @Locked(value = "stock", key = "#p0", waitTime = 20_000, retryCount = 0)
        open suspend fun deduct(sku: Long, events: MutableList<String>, pause: Long): String {
            events += "start $sku"
            delay(pause)
            withContext(Dispatchers.IO) { yield() }
            events += "end $sku"
            return "deducted $sku"
        }
        // end-sample: locked-suspend

        @Locked(value = "counter", waitTime = 20_000, retryCount = 0)
        open suspend fun increment(counter: AtomicInteger) {
            val seen = counter.get()
            delay(1)
            withContext(Dispatchers.IO) { yield() }
            counter.set(seen + 1)
        }

        @Locked(value = "nested", waitTime = 0, retryCount = 1, retryInterval = 1)
        open suspend fun outer(): Int = withContext(Dispatchers.IO) { self.inner() + 1 }

        @Locked(value = "nested", waitTime = 0, retryCount = 1, retryInterval = 1)
        open suspend fun inner(): Int = client.getLock("nested").awaitHoldCount()

        @Locked("failing")
        open suspend fun fail(): String {
            delay(1)
            throw IllegalStateException("deduction failed")
        }

        @Locked(value = "held", waitTime = 20_000, retryCount = 0)
        open suspend fun hold(held: CompletableDeferred<Unit>) {
            held.complete(Unit)
            awaitCancellation()
        }

        @Locked(value = "busy", waitTime = 0, retryCount = 1, retryInterval = 1, whenUnavailable = WhenUnavailable.SKIP)
        open suspend fun skip(): String? = "ran"

        @Locked(value = "cleanup", waitTime = 20_000, retryCount = 0)
        open suspend fun holdThenCleanUp(held: CompletableDeferred<Unit>, events: MutableList<String>) {
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

        @Locked(value = "cleanup", waitTime = 20_000, retryCount = 0)
        open suspend fun next(events: MutableList<String>) {
            events += "next"
        }
    }

    /** A service whose skipped call would put null where Kotlin promises a value. */
    open class Counting {
        @Locked(value = "count", whenUnavailable = WhenUnavailable.SKIP)
        open suspend fun count(): Int = 1
    }

    @Configuration(proxyBeanMethods = false)
    @EnableLocked
    open class BadApp {
        @Bean(destroyMethod = "close")
        open fun haspClient(): HaspClient = HaspClient.create(redisUri)

        @Bean
        open fun counting(): Counting = Counting()
    }

    @Configuration(proxyBeanMethods = false)
    @EnableLocked
    open class App {
        @Bean(destroyMethod = "close")
        open fun haspClient(): HaspClient = HaspClient.create(redisUri)

        @Bean
        open fun stock(client: HaspClient): Stock = Stock(client)
    }

    companion object {
        lateinit var redisUri: String
    }

    private lateinit var context: AnnotationConfigApplicationContext
    private lateinit var stock: Stock
    private lateinit var elsewhere: HaspClient
    private lateinit var probe: RedisProbe

    @BeforeAll
    fun start(server: RedisServer) {
        redisUri = server.uri()
        context = AnnotationConfigApplicationContext(App::class.java)
        stock = context.getBean(Stock::class.java)
        stock.wire(stock)
        elsewhere = HaspClient.create(redisUri)
        probe = server.probe()
    }

    @AfterAll
    fun stop() {
        context.close()
        elsewhere.close()
        probe.close()
    }

    private fun exists(key: String): Long = probe.call("EXISTS", key) as Long

    private fun test(block: suspend CoroutineScope.() -> Unit) = runBlocking { withTimeout(60_000) { block() } }

    @Test
    fun aSecondCallerWaitsForTheWorkOfTheFirstNotItsFirstSuspension() = test {
        assertTrue(LockedAspect.COROUTINES_BRIDGED, "Spring runs these suspend functions as Monos")
        val events = Collections.synchronizedList(mutableListOf<String>())
        val first = async(Dispatchers.Default) { stock.deduct(7, events, 500) }
        assertTrue(Conditions.await(Duration.ofSeconds(20)) { events.isNotEmpty() })
        assertEquals(1L, exists("stock:7"), "held while the first call is suspended")
        val second = async(Dispatchers.Default) { stock.deduct(7, events, 0) }
        assertEquals("deducted 7", first.await())
        assertEquals("deducted 7", second.await())
        assertEquals(listOf("start 7", "end 7", "start 7", "end 7"), events)
        assertEquals(0L, exists("stock:7"))
    }

    @Test
    fun coroutinesOnManyThreadsKeepACounterExact() = test {
        val counter = AtomicInteger()
        coroutineScope {
            repeat(8) {
                launch(Dispatchers.Default) { repeat(25) { stock.increment(counter) } }
            }
        }
        assertEquals(200, counter.get(), "read, a hop to other threads, write: exact only under the lock")
        assertEquals(0L, exists("counter"))
    }

    @Test
    fun aLockedCallInsideAnotherReentersAsTheSameCoroutine() = test {
        assertEquals(3, stock.outer(), "inner held the lock twice: the outer call's hold and its own")
        val client = context.getBean(HaspClient::class.java)
        assertEquals(2, client.getLock("nested").withLock { stock.inner() }, "withLock, then the call, re-entered")
        assertEquals(0L, exists("nested"))
    }

    @Test
    fun aChildCoroutineIsAnotherOwner() = test {
        val client = context.getBean(HaspClient::class.java)
        val thrown = client.getLock("nested").withLock {
            coroutineScope { async { runCatching { stock.inner() }.exceptionOrNull() }.await() }
        }
        assertTrue(thrown is LockUnavailableException && thrown.lockName() == "nested", thrown.toString())
        assertEquals(0L, exists("nested"))
    }

    @Test
    fun anExceptionGoesOutUnchangedAndGivesTheLockBack() = test {
        val thrown = runCatching { stock.fail() }.exceptionOrNull()
        assertTrue(thrown is IllegalStateException && thrown.message == "deduction failed", thrown.toString())
        assertEquals(0L, exists("failing"))
    }

    @Test
    fun cancellingAHoldingCallGivesTheLockBack() = test {
        val held = CompletableDeferred<Unit>()
        val holder = launch(Dispatchers.Default) { stock.hold(held) }
        held.await()
        assertEquals(1L, exists("held"))
        holder.cancelAndJoin()
        assertTrue(Conditions.await(Duration.ofSeconds(20)) { exists("held") == 0L }, "given back after the cancel")
    }

    @Test
    fun aCancelledCallGivesTheLockBackOnlyOnceItsWorkHasStopped() = test {
        val events = Collections.synchronizedList(mutableListOf<String>())
        val held = CompletableDeferred<Unit>()
        val holder = launch(Dispatchers.Default) { stock.holdThenCleanUp(held, events) }
        held.await()
        holder.cancel()
        stock.next(events)
        assertEquals(listOf("cleaned up", "next"), events, "the next caller came in after the cancelled call's finally")
        holder.join()
        assertEquals(0L, exists("cleanup"))
    }

    @Test
    fun skippingASuspendFunctionOfANonNullValueFailsTheStartup() {
        val thrown = runCatching { AnnotationConfigApplicationContext(BadApp::class.java).close() }.exceptionOrNull()
        val message = generateSequence(thrown) { it.cause }.map { it.message ?: "" }.joinToString(" / ")
        assertTrue(message.contains("Counting.count(Continuation): @Locked whenUnavailable: SKIP on a suspend function"),
            message)
    }

    @Test
    fun aCallThatCannotHaveItsLockIsSkipped() = test {
        val other = elsewhere.getLock("busy")
        other.lock()
        try {
            assertNull(stock.skip())
        } finally {
            other.unlock()
        }
        assertEquals("ran", stock.skip())
    }
}
