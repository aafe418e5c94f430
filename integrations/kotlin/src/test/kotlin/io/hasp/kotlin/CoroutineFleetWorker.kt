package io.hasp.kotlin

import io.hasp.HaspClient
import kotlin.system.exitProcess
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

/**
 * A child JVM of [CoroutineFleetIT]: `owners` coroutines at once, each doing `increments` critical sections
 * of GET, a pause and a hop to `Dispatchers.IO`, then SET of `counter` inside `withLock`. Prints
 * `DONE <critical sections>`. Arguments are `key=value`: `uri`, `lock`, `counter`, `owners`, `increments`.
 */
object CoroutineFleetWorker {
    @JvmStatic
    fun main(argv: Array<String>) {
        val args = argv.associate { it.substringBefore('=') to it.substringAfter('=') }
        val owners = args.getValue("owners").toInt()
        val increments = args.getValue("increments").toInt()
        val counter = args.getValue("counter")
        HaspClient.create(args.getValue("uri")).use { client ->
            val redis = client.commands()
            val lock = client.getLock(args.getValue("lock"))
            runBlocking(Dispatchers.Default) {
                repeat(owners) {
                    launch {
                        repeat(increments) {
                            lock.withLock {
                                val seen = redis.get(counter).await()?.toLong() ?: 0L
                                delay(1)
                                withContext(Dispatchers.IO) { redis.set(counter, (seen + 1).toString()).await() }
                            }
                        }
                    }
                }
            }
            println("DONE ${owners * increments}")
            System.out.flush()
        }
        exitProcess(0)
    }
}
