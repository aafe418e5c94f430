package io.hasp.bench.fleet;

import io.hasp.testing.CommandStats;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Cross-process contention, the way services contend: spawns P JVM processes ({@link FleetWorker}) x T
 * threads of one library on one lock name, each critical section a GET then a SET of a plain counter.
 * Reports critical sections per second and checks that the counter equals the number of critical sections
 * (zero lost updates). Not JMH: the processes are the point.
 *
 * <p>Run alone: {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.fleet.FleetDriver redis://127.0.0.1:6379 hasp 2 4 10}
 * (library, processes, threads per process, seconds); {@code lock-bench/bench.sh} runs it for both libraries.
 */
public final class FleetDriver {

    /** What one fleet did. */
    public record Result(String library, int processes, int threads, long criticalSections, double seconds,
            long counter, long expected, int plannedSeconds, Server server) {

        /**
         * Returns whether the slowest process ran well past its deadline: a thread that took the lock
         * before the deadline was still waiting long after it (e.g. a waiter that missed a wake-up).
         *
         * @return true when the timed part lasted more than 1.5 x the plan + 1 s
         */
        public boolean overran() {
            return seconds > plannedSeconds * 1.5 + 1;
        }

        /**
         * Returns the rate of the timed part of the run.
         *
         * @return critical sections per second over all processes
         */
        public double perSecond() {
            return seconds > 0 ? criticalSections / seconds : 0;
        }

        /**
         * Returns whether no update was lost.
         *
         * @return true when the counter equals the number of critical sections
         */
        public boolean exact() {
            return counter == expected;
        }
    }

    /**
     * What the server did for a fleet, from {@code INFO commandstats} before and after the run.
     *
     * @param evalsha script calls
     * @param subscribe SUBSCRIBE calls
     * @param unsubscribe UNSUBSCRIBE calls
     * @param busyMicros server time spent on the fleet's top-level commands
     */
    public record Server(long evalsha, long subscribe, long unsubscribe, long busyMicros) {
    }

    private FleetDriver() {
    }

    /**
     * Command line: {@code <uri> <hasp|redisson> <processes> <threads> <seconds>}.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        if (args.length != 5) {
            System.err.println("usage: FleetDriver <uri> <hasp|redisson> <processes> <threads> <seconds>");
            System.exit(2);
        }
        Result result = run(args[0], args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                Integer.parseInt(args[4]));
        System.out.printf("%s %d x %d: %.0f critical sections/s over %.1f s, counter %d of %d (%s); %s%n",
                result.library(), result.processes(), result.threads(), result.perSecond(), result.seconds(),
                result.counter(), result.expected(), result.exact() ? "exact" : "LOST UPDATES", describe(result));
        System.exit(result.exact() ? 0 : 1);
    }

    /**
     * Runs one fleet to the end.
     *
     * @param uri the server
     * @param library {@code hasp} or {@code redisson}
     * @param processes JVM processes to spawn
     * @param threads threads per process
     * @param seconds how long each process runs its critical sections
     * @return what the fleet did
     * @throws IllegalStateException when a process fails; the message carries its output
     */
    public static Result run(String uri, String library, int processes, int threads, int seconds) {
        return run(uri, library, processes, threads, seconds, List.of());
    }

    /**
     * Runs one fleet to the end, its processes started with extra JVM options.
     *
     * @param uri the server
     * @param library {@code hasp}, {@code redisson} or a peer lock's method name
     * @param processes JVM processes to spawn
     * @param threads threads per process
     * @param seconds how long each process runs its critical sections
     * @param jvmOptions options for every process, e.g. the {@code -D} options naming a peer's server
     * @return what the fleet did
     * @throws IllegalStateException when a process fails; the message carries its output
     */
    public static Result run(String uri, String library, int processes, int threads, int seconds,
            List<String> jvmOptions) {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String lockName = "bench:fleet:" + tag + ":lock";
        String counterKey = "bench:fleet:" + tag + ":counter";
        RedisClient lettuce = RedisClient.create(uri);
        List<Worker> workers = new ArrayList<>();
        try (StatefulRedisConnection<String, String> connection = lettuce.connect()) {
            connection.sync().set(counterKey, "0");
            for (int i = 0; i < processes; i++) {
                workers.add(Worker.start(library, uri, lockName, counterKey, threads, seconds, jvmOptions));
            }
            for (Worker worker : workers) {
                worker.expect("READY", 120);
            }
            CommandStats before = CommandStats.parse(connection.sync().info("commandstats"));
            for (Worker worker : workers) {
                worker.send("GO");
            }
            long total = 0;
            long timed = 0;
            double elapsed = 0;
            for (Worker worker : workers) {
                String[] done = worker.expect("DONE", seconds + 120L).split(" ");
                total += Long.parseLong(done[1]);
                elapsed = Math.max(elapsed, Long.parseLong(done[2]) / 1e9);
                timed += Long.parseLong(done[3]);
            }
            CommandStats after = CommandStats.parse(connection.sync().info("commandstats"));
            long counter = Long.parseLong(connection.sync().get(counterKey));
            connection.sync().del(counterKey, lockName);
            Server server = new Server(after.calls(before, "evalsha"), after.calls(before, "subscribe"),
                    after.calls(before, "unsubscribe"), after.busyMicros(before));
            return new Result(library, processes, threads, timed, elapsed, counter, total, seconds, server);
        } finally {
            workers.forEach(Worker::stop);
            lettuce.shutdown();
        }
    }

    /**
     * Describes what the server did for a fleet, per critical section.
     *
     * @param result a fleet's result
     * @return e.g. "2.5 EVALSHA per critical section, 1 SUBSCRIBE per 6, server busy 0.6 s of 24.0 s"
     */
    public static String describe(Result result) {
        Server server = result.server();
        double sections = Math.max(1, result.expected());
        String subscribes = server.subscribe() == 0 ? "no SUBSCRIBE"
                : String.format(java.util.Locale.ROOT, "1 SUBSCRIBE per %.0f", sections / server.subscribe());
        return String.format(java.util.Locale.ROOT, "%.1f EVALSHA per critical section, %s, server busy %.2f s of %.1f s",
                server.evalsha() / sections, subscribes, server.busyMicros() / 1e6, result.seconds());
    }

    /** A spawned {@link FleetWorker} process and its line protocol. */
    private static final class Worker {
        private final Process process;
        private final BufferedReader out;
        private final Writer in;
        private final StringBuilder transcript = new StringBuilder();

        private Worker(Process process) {
            this.process = process;
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        }

        static Worker start(String library, String uri, String lockName, String counterKey, int threads, int seconds,
                List<String> jvmOptions) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-Xms256m", "-Xmx256m"));
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), FleetWorker.class.getName(), library,
                    uri, lockName, counterKey, Integer.toString(threads), Integer.toString(seconds)));
            try {
                return new Worker(new ProcessBuilder(command).redirectErrorStream(true).start());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Reads lines until one starts with the word; fails on ERROR, end of output or the timeout. */
        String expect(String word, long timeoutSeconds) {
            CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String next = out.readLine(); next != null; next = out.readLine()) {
                        transcript.append(next).append('\n');
                        if (next.startsWith(word) || next.startsWith("ERROR")) {
                            return next;
                        }
                    }
                    return "ERROR process ended";
                } catch (IOException e) {
                    return "ERROR " + e;
                }
            });
            try {
                String found = line.get(timeoutSeconds, TimeUnit.SECONDS);
                if (found.startsWith("ERROR")) {
                    throw new IllegalStateException("fleet process: " + found + "\n" + transcript);
                }
                return found;
            } catch (TimeoutException e) {
                throw new IllegalStateException("fleet process: no " + word + " within " + timeoutSeconds + " s\n"
                        + transcript);
            } catch (ExecutionException e) {
                throw new IllegalStateException("fleet process: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }

        void send(String line) {
            try {
                in.write(line + "\n");
                in.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void stop() {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
