package io.hasp.it.lock;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started by a test with the test's own class path, running one main class; its merged
 * output is collected line by line. {@link #close()} kills it if it is still alive.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChildJvm(Process process, String label) {
        this.process = process;
        this.reader = new Thread(this::drain, "child-jvm-" + label);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** The java launcher of the JVM running the tests. */
    public static String currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The java launcher of the Temurin 25 JDK on this machine, or null. */
    public static String temurin25() {
        Path java = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        return Files.isExecutable(java) ? java.toString() : null;
    }

    /** Starts {@code main} with {@code args} on the launcher {@code java}. */
    public static ChildJvm start(String java, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            return new ChildJvm(process, main.getSimpleName());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
    }

    private void drain() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // the process died; what was read stays available
        }
    }

    /** Waits until a line starting with {@code prefix} was printed; returns it, or null at the deadline or exit. */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            for (;;) {
                for (String line : lines) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && !reader.isAlive())) {
                    return null;
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(left, 200_000_000L))));
            }
        }
    }

    /** Waits for the exit; returns the exit code, or throws when it did not exit in time. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child JVM still running after " + timeout + "; output:\n" + output());
        }
        reader.join(5_000);
        return process.exitValue();
    }

    /** @return the JVM's process id */
    public long pid() {
        return process.pid();
    }

    /** Kills the JVM with SIGKILL and waits for it to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Everything printed so far. */
    public String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** Kills the JVM if it is still alive and waits for its output to drain. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                kill();
            }
            reader.join(5_000);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
