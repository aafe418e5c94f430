package io.hasp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The server's ceiling for the benchmarks' unit of work: {@code redis-benchmark} sending EVALSHA of the
 * lock's acquire script (the same arguments as the raw EVALSHA rows) from {@value #CLIENTS} connections
 * with {@value #PIPELINE} commands pipelined on each. What a client library reaches is then a fraction of
 * what the server can do at all on this machine. That ceiling is the acquire script's path for a holder
 * re-acquiring its lock (three Redis calls inside the script); a lock+unlock pair asks more of the
 * server (a new hash, its deletion, the unlock message, the unlock latch), so the pair's own ceiling is
 * measured too ({@link #measurePairs}), with both scripts in one call.
 *
 * <p>Used by {@link BenchRunner}; not a JMH benchmark.
 */
public final class ServerCeiling {

    /** Connections redis-benchmark opens ({@code -c}). */
    public static final int CLIENTS = 16;

    /** Commands pipelined per connection ({@code -P}). */
    public static final int PIPELINE = 16;

    /** The blocking callers of the uncontended 8-thread rows, one command in flight each ({@link #blockingPairBound}). */
    public static final int BLOCKING_CALLERS = 8;

    /** Random key names the pair ceiling draws from ({@code -r}): enough that two calls rarely share one. */
    public static final long KEY_SPACE = 1_000_000_000L;

    /** What a measurement found. */
    public record Result(String command, double requestsPerSecond, String detail) {

        /**
         * Returns whether a ceiling was measured.
         *
         * @return false when redis-benchmark was not found or failed
         */
        public boolean measured() {
            return requestsPerSecond > 0;
        }
    }

    private ServerCeiling() {
    }

    /**
     * Finds redis-benchmark: beside the redis-server binary in use, else on the PATH.
     *
     * @param serverBinary the redis-server binary, or null when unknown
     * @return the executable, or empty when there is none
     */
    public static Optional<Path> findRedisBenchmark(Path serverBinary) {
        List<Path> candidates = new ArrayList<>();
        if (serverBinary != null && serverBinary.getParent() != null) {
            candidates.add(serverBinary.getParent().resolve("redis-benchmark"));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    candidates.add(Path.of(dir, "redis-benchmark"));
                }
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * Runs redis-benchmark once against a server on which the acquire script is already loaded: the
     * EVALSHA ceiling, one owner re-acquiring one held lock again and again.
     *
     * @param executable the redis-benchmark binary
     * @param host the server's host
     * @param port the server's port
     * @param sha the acquire script's SHA1
     * @param requests the number of EVALSHA calls to send ({@code -n})
     * @return the measured rate, or a result whose detail says why there is none
     */
    public static Result measure(Path executable, String host, int port, String sha, long requests) {
        return measure(executable, host, port, sha, requests, CLIENTS, PIPELINE);
    }

    /**
     * Like {@link #measure(Path, String, int, String, long)} with {@code clients} connections and
     * {@code pipeline} commands in flight on each.
     */
    static Result measure(Path executable, String host, int port, String sha, long requests, int clients, int pipeline) {
        List<String> arguments = List.of("-c", Integer.toString(clients), "-P", Integer.toString(pipeline),
                "-n", Long.toString(requests), "--csv", "EVALSHA", sha, "6", "bench:ceiling", "bench:ceiling:line",
                "bench:ceiling:places", "bench:ceiling:turn", "bench:ceiling:heirs", "bench:ceiling:grant",
                AcquireScriptText.LEASE_MILLIS, AcquireScriptText.OWNER, AcquireScriptText.COUNT);
        String shown = "redis-benchmark -c " + clients + " -P " + pipeline + " -n " + requests
                + " EVALSHA <acquire> 6 <key> <key>:line <key>:places <key>:turn <key>:heirs <key>:grant "
                + AcquireScriptText.LEASE_MILLIS + " " + AcquireScriptText.OWNER + " " + AcquireScriptText.COUNT;
        return run(executable, host, port, arguments, shown);
    }

    /**
     * The most lock+unlock pairs per second {@link #BLOCKING_CALLERS} blocking callers get from the server
     * with a client as lean as redis-benchmark's: each caller has one command in flight, so the server
     * serves at most that many at a time, and a pair is two such round trips, an acquire and an unlock. Measured as
     * redis-benchmark with {@value #BLOCKING_CALLERS} connections and no pipelining, once with the acquire
     * script (a cheap script: the cost of a round trip) and once with the pair script (a pair's script work
     * and one round trip); a pair sent as two commands costs their sum, so the bound is
     * {@code 1 / (1 / acquires + 1 / pairs)}.
     *
     * @param acquires the acquire script's rate with {@value #BLOCKING_CALLERS} callers, calls/s
     * @param pairs the pair script's rate with {@value #BLOCKING_CALLERS} callers, pairs/s
     * @return the bound in pairs/s, or 0 when either was not measured
     */
    public static double blockingPairBound(Result acquires, Result pairs) {
        if (!acquires.measured() || !pairs.measured()) {
            return 0;
        }
        return 1 / (1 / acquires.requestsPerSecond() + 1 / pairs.requestsPerSecond());
    }

    /**
     * Runs redis-benchmark once with {@link LockPairScriptText}'s script, already loaded: the server's
     * ceiling on lock+unlock pairs, each call a pair on a new lock (random key names out of
     * {@value #KEY_SPACE}). The calls leave their unlock latches behind, under
     * {@link LockPairScriptText#KEY_PREFIX}, for the latch's life.
     *
     * @param executable the redis-benchmark binary
     * @param host the server's host
     * @param port the server's port
     * @param sha the pair script's SHA1
     * @param requests the number of pairs to send ({@code -n})
     * @return the measured rate in pairs per second, or a result whose detail says why there is none
     */
    public static Result measurePairs(Path executable, String host, int port, String sha, long requests) {
        return measurePairs(executable, host, port, sha, requests, CLIENTS, PIPELINE);
    }

    /**
     * Like {@link #measurePairs(Path, String, int, String, long)} with {@code clients} connections and
     * {@code pipeline} commands in flight on each.
     */
    static Result measurePairs(Path executable, String host, int port, String sha, long requests, int clients,
            int pipeline) {
        List<String> arguments = new ArrayList<>(List.of("-c", Integer.toString(clients), "-P", Integer.toString(pipeline),
                "-n", Long.toString(requests), "-r", Long.toString(KEY_SPACE), "--csv", "EVALSHA", sha, "3"));
        arguments.addAll(LockPairScriptText.KEYS);
        arguments.addAll(List.of(AcquireScriptText.LEASE_MILLIS, AcquireScriptText.OWNER, LockPairScriptText.LATCH_MILLIS));
        String shown = "redis-benchmark -c " + clients + " -P " + pipeline + " -n " + requests + " -r " + KEY_SPACE
                + " EVALSHA <acquire+unlock> 3 <random lock, channel, latch> " + AcquireScriptText.LEASE_MILLIS + " "
                + AcquireScriptText.OWNER + " " + LockPairScriptText.LATCH_MILLIS;
        return run(executable, host, port, arguments, shown);
    }

    /**
     * Runs redis-benchmark against {@code host:port} with {@code arguments} (which include {@code --csv}) and
     * reads the rate of its one test.
     *
     * @param shown how the measurement was made, for the report
     */
    static Result run(Path executable, String host, int port, List<String> arguments, String shown) {
        List<String> command = new ArrayList<>(List.of(executable.toString(), "-h", host, "-p", Integer.toString(port)));
        command.addAll(arguments);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                return new Result(shown, 0, "redis-benchmark failed: " + tail(output));
            }
            return parse(shown, new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(shown, 0, "interrupted");
        }
    }

    /**
     * Reads requests/s from redis-benchmark's {@code --csv} output (header line, then one quoted row).
     *
     * @param command how the measurement was made, for the report
     * @param csv the whole output
     * @return the parsed result
     */
    static Result parse(String command, String csv) {
        for (String line : csv.split("\\R")) {
            if (line.startsWith("\"") && !line.startsWith("\"test\"")) {
                String[] cells = line.split("\",\"");
                if (cells.length > 1) {
                    return new Result(command, Double.parseDouble(cells[1].replace("\"", "")), "");
                }
            }
        }
        return new Result(command, 0, "no result row in redis-benchmark's output: " + csv.strip());
    }

    private static String tail(byte[] output) {
        String text = new String(output, StandardCharsets.UTF_8).strip();
        return text.length() > 300 ? text.substring(text.length() - 300) : text;
    }
}
