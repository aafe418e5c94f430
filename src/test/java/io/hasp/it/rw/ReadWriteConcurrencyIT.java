package io.hasp.it.rw;

import static io.hasp.it.rw.RwTesting.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.Replies;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Readers and writers in several threads of this JVM and of a child JVM on one read/write lock,
 * recording in Redis who is inside (see {@link RwWorker}): no writer is ever in with anyone, and
 * readers really overlap.
 */
@ExtendWith(RedisServerExtension.class)
class ReadWriteConcurrencyIT {

    private static final int THREADS = 4;
    private static final int ITERATIONS = 60;

    @Test
    void writersAreAloneAndReadersOverlap(RedisServer redis) throws Exception {
        String name = "rw-concurrency";
        String prefix = "rw-concurrency-record";
        Path log = Files.createTempFile("rw-worker", ".log");
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                RwWorker.class.getName(), redis.uri(), name, prefix, Integer.toString(THREADS),
                Integer.toString(ITERATIONS), "2")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try (HaspClient client = RwTesting.client(redis.uri())) {
            RwWorker.run(client, name, prefix, THREADS, ITERATIONS, 1);
            assertTrue(child.waitFor(5, TimeUnit.MINUTES), "child JVM finished");
            assertEquals(0, child.exitValue(), () -> "child JVM failed:\n" + readLog(log));

            assertNull(get(client.commands().get(prefix + ":violations")), "nobody was ever in with a writer");
            assertEquals(Long.toString(2L * THREADS * ITERATIONS), get(client.commands().get(prefix + ":sections")));
            List<String> maxima = get(client.commands().execute(Replies.STRING_LIST, "LRANGE",
                    prefix + ":max-readers", "0", "-1"));
            assertEquals(2 * THREADS, maxima.size());
            long most = maxima.stream().mapToLong(Long::parseLong).max().orElse(0);
            assertTrue(most > 1, "readers overlapped: at most " + most + " together");
            assertEquals(-2, RwTesting.pttl(client, name), "the lock is free at the end");
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(log);
        }
    }

    private static String readLog(Path log) {
        try {
            return Files.readString(log);
        } catch (Exception e) {
            return "(no log: " + e + ")";
        }
    }
}
