package io.hasp.kotlin

import io.hasp.testing.RedisServer
import io.hasp.testing.RedisServerExtension
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.ExtendWith
import org.junit.jupiter.api.io.TempDir

/**
 * Three JVMs of [CoroutineFleetWorker], eight coroutines each, on one lock and one counter: the counter
 * ends exact and the lock free.
 */
@ExtendWith(RedisServerExtension::class)
class CoroutineFleetIT {

    @Test
    fun coroutineProcessesKeepOneCounterExact(server: RedisServer, @TempDir logs: Path) {
        val owners = 8
        val increments = 30
        val java = Path.of(System.getProperty("java.home"), "bin", "java").toString()
        val fleet = (0 until 3).map { i ->
            val log = logs.resolve("worker-$i.log")
            val process = ProcessBuilder(
                java, "-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), CoroutineFleetWorker::class.java.name,
                "uri=${server.uri()}", "lock=fleet:kt", "counter=fleet:kt:counter", "owners=$owners", "increments=$increments",
            ).redirectErrorStream(true).redirectOutput(log.toFile()).start()
            process to log
        }
        try {
            for ((process, log) in fleet) {
                assertTrue(process.waitFor(5, TimeUnit.MINUTES), "a worker still runs; output:\n" + Files.readString(log))
                assertEquals(0, process.exitValue(), Files.readString(log))
                assertTrue(Files.readString(log).contains("DONE ${owners * increments}"), Files.readString(log))
            }
        } finally {
            fleet.forEach { (process, _) -> process.destroyForcibly() }
        }
        server.probe().use { probe ->
            assertEquals((3 * owners * increments).toString(), probe.call("GET", "fleet:kt:counter"))
            assertEquals(0L, probe.call("EXISTS", "fleet:kt"))
        }
    }
}
