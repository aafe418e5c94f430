package io.hasp.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The packaged demo, {@code target/hasp-demo.jar}, as a user runs it: {@code java -jar} in a child
 * JVM whose PATH holds no redis-server, so the demo must start the redis-server build the jar
 * carries for this platform. The jar carries the demo and what it runs on, nothing of the benchmarks.
 */
class DemoJarIT {

    private static final Path JAR = Path.of("target", "hasp-demo.jar");

    @Test
    void theJarCarriesOnlyWhatTheDemoNeeds() throws IOException {
        assertTrue(Files.isRegularFile(JAR), JAR.toAbsolutePath() + " missing: run the package phase first");
        List<String> entries;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            entries = jar.stream().map(e -> e.getName()).collect(Collectors.toList());
        }
        assertTrue(entries.contains("io/hasp/demo/Demo.class"), "the demo itself");
        assertTrue(entries.contains("io/hasp/HaspClient.class"), "the client");
        assertTrue(entries.contains("io/hasp/testing/RedisServer.class"), "the fixture that starts redis-server");
        for (String foreign : List.of("io/hasp/bench/", "io/hasp/lock/rw/", "org/redisson/", "io/lettuce/",
                "org/openjdk/jmh/", "META-INF/BenchmarkList", "io/netty/handler/codec/redis/", "reactor/")) {
            List<String> found = entries.stream().filter(e -> e.startsWith(foreign)).limit(3).collect(Collectors.toList());
            assertTrue(found.isEmpty(), "the demo jar must not carry " + foreign + ": " + found);
        }
        List<String> binaries = entries.stream().filter(e -> e.startsWith("redis-server-")).collect(Collectors.toList());
        String platform = coveredPlatform();
        if (platform != null) {
            assertEquals(1, binaries.size(), "exactly this platform's redis-server: " + binaries);
            assertTrue(binaries.get(0).endsWith("-" + platform), binaries + " for " + platform);
        } else {
            assertTrue(binaries.isEmpty(), "no redis-server for a platform embedded-redis does not cover: " + binaries);
        }
    }

    @Test
    void javaDashJarRunsTheDemoOnItsOwnRedisServer() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-jar", JAR.toString(),
                "--workers", "2", "--increments", "25", "--lock", "demo-jar-it:lock", "--counter", "demo-jar-it:counter"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        boolean carriesRedis = carriesRedisServer();
        if (carriesRedis) {
            // Nothing else to fall back on: the demo must use the binary inside the jar.
            builder.environment().remove("REDIS_SERVER");
            builder.environment().put("PATH", java.getParent().toString());
        }
        Process demo = builder.start();
        String output;
        try {
            output = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(demo.waitFor(120, TimeUnit.SECONDS), "the demo did not end within 120 s:\n" + output);
        } finally {
            demo.destroyForcibly();
        }
        System.out.println(output);
        assertEquals(0, demo.exitValue(), output);
        assertTrue(output.contains("demo-jar-it:counter = 50  (+50, expected +50)  exact"), output);
        if (carriesRedis) {
            assertTrue(output.contains("EMBEDDED"), "the jar's own redis-server was used:\n" + output);
        }
    }

    /** This machine as the demo-redis-* profiles name it, or null where embedded-redis has no build. */
    private static String coveredPlatform() {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(java.util.Locale.ROOT);
        String cpu = arch.equals("amd64") || arch.equals("x86_64") ? "amd64" : arch.equals("aarch64") ? "arm64" : null;
        if (cpu == null) {
            return null;
        }
        return os.startsWith("linux") ? "linux-" + cpu : os.startsWith("mac") ? "darwin-" + cpu : null;
    }

    private static boolean carriesRedisServer() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            return jar.stream().anyMatch(e -> e.getName().startsWith("redis-server-"));
        }
    }
}
