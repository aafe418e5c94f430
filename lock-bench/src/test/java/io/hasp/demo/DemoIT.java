package io.hasp.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisSentinel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The demo end to end, small: its own redis-server, two worker JVMs, an exact locked counter. */
class DemoIT {

    /** What one run of the demo returned and printed. */
    private record Run(int status, String output) {
    }

    /** Runs the demo with {@code args}, capturing what it prints (and printing it again). */
    private static Run demo(String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int status;
        try (PrintStream tee = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(tee);
            status = Demo.run(args);
        } finally {
            System.setOut(original);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        System.out.println(output);
        return new Run(status, output);
    }

    @Test
    void theLockedCounterIsExactAndTheDemoSucceeds() throws Exception {
        Run run = demo("--workers", "4", "--increments", "50", "--lock", "demo-it:lock", "--counter", "demo-it:counter");
        String output = run.output();
        assertEquals(0, run.status(), output);
        assertTrue(output.contains("4 workers in 2 JVM processes"), output);
        assertTrue(output.contains("demo-it:counter = 200  (+200, expected +200)  exact"), output);
        assertTrue(output.contains("progress: 200 / 200 increments (100%)"), output);
        assertTrue(output.matches("(?s).*\\[worker 0\\] meters \\(hasp-micrometer\\): 100 acquisitions, wait p50 \\d+ us, p99 \\d+ us;"
                + " 100 holds ended, 0 lost; \\d+ watchdog renewal calls.*"), output);
    }

    @Test
    void twoWorkerJvmsStayExactOnARedisCluster() throws Exception {
        try (RedisCluster cluster = RedisCluster.start()) {
            Run run = demo("--redis", cluster.uri(), "--workers", "4", "--increments", "50",
                    "--lock", "demo-cluster:lock", "--counter", "demo-cluster:counter");
            String output = run.output();
            assertEquals(0, run.status(), output);
            assertTrue(output.contains("4 workers in 2 JVM processes"), output);
            assertTrue(output.contains("on " + cluster.uri()), output);
            assertTrue(output.contains("demo-cluster:counter = 200  (+200, expected +200)  exact"), output);
        }
    }

    @Test
    void twoWorkerJvmsStayExactBehindSentinel() throws Exception {
        try (RedisSentinel deployment = RedisSentinel.start()) {
            Run run = demo("--redis", deployment.uri(), "--workers", "4", "--increments", "50",
                    "--lock", "demo-sentinel:lock", "--counter", "demo-sentinel:counter");
            String output = run.output();
            assertEquals(0, run.status(), output);
            assertTrue(output.contains("4 workers in 2 JVM processes"), output);
            assertTrue(output.contains("on " + deployment.uri()), output);
            assertTrue(output.contains("demo-sentinel:counter = 200  (+200, expected +200)  exact"), output);
        }
    }

    @Test
    void badFlagsAreRejectedBeforeAnythingStarts() throws Exception {
        assertEquals(64, Demo.run("--workers", "0"));
        assertEquals(64, Demo.run("--processes", "1"));
        assertEquals(64, Demo.run("--nope", "1"));
        assertEquals(0, Demo.run("--help"));
    }
}
