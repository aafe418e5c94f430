package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.bench.report.SvgChart;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.CommandStats;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * One hot lock shared by many processes: each client stands for a process of its own (its own connections and
 * subscription), one thread each (four at 2 clients), taking the lock, holding it {@value #HOLD_MICROS} us and
 * unlocking, for a while; hasp, then Redisson, at 2, 8, 32 and 64 clients, all on one redis-server in one run.
 * Per row: acquisitions/s, scripts ({@code EVALSHA} + {@code EVAL}, from {@code INFO commandstats}) and the
 * server's CPU time ({@code INFO cpu}) per acquisition, the least and the most acquisitions of one client, and the
 * p50/p99 wait from the call to the grant. Then the mixed run of a migration: one hasp client and one Redisson
 * client, four threads each, on one lock: each library's share and its p99 and longest wait. Every row checks a
 * plain counter incremented under the lock: a lost update fails the run.
 *
 * <p>Each Redisson client runs with small pools (2 threads, 2 event-loop threads, 1 to 4 connections), so that 64
 * of them fit in one JVM as 64 one-thread processes would; hasp's clients run with their defaults.
 *
 * <p>Run: {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.HotLock [seconds] [clients ... | mixed]}
 * (defaults 10 and 2 8 32 64; {@code mixed}: the mixed run alone; it starts its own redis-server,
 * {@code REDIS_SERVER} picks the binary as for the tests). With {@code -Dhasp.hotlock.svg=<file>} it also writes
 * each library's acquisitions/s against the clients as an SVG chart there. With {@code -Dhasp.hotlock.kind=write}
 * every row takes the write lock of a read/write lock instead of the reentrant lock (each library's own); with
 * {@code -Dhasp.hotlock.kind=semaphore} it takes the one permit of a semaphore (each library's, one layout). With
 * {@code -Dhasp.hotlock.libraries=hasp} the rows run hasp alone (the chart and the mixed run need both). With
 * {@code -Dhasp.hotlock.commands=true} a line before each row tells, per command the server ran, its calls and
 * microseconds per acquisition, and the server CPU per acquisition spent outside commands. With
 * {@code -Dhasp.hotlock.rounds=<n>} the rows run n times over, one round after another (so that a noisy spell of
 * the machine falls on every row alike), and a last table gives each row's medians over the rounds, with its
 * server CPU per acquisition against the first row's; the chart then draws the medians. Not a JMH benchmark: its
 * rows are fleets of clients, not threads of one.
 */
public final class HotLock {

    /** How long each acquisition holds the lock. */
    static final long HOLD_MICROS = 100;
    /** Which lock the rows take: {@code reentrant} (default) or {@code write}, a read/write lock's write lock. */
    private static final String KIND = System.getProperty("hasp.hotlock.kind", "reentrant");
    /** The libraries each row runs, in order: {@code hasp,redisson} unless {@code -Dhasp.hotlock.libraries} says. */
    private static final List<String> LIBRARIES =
            List.of(System.getProperty("hasp.hotlock.libraries", "hasp,redisson").split(","));
    /** Whether each row also prints, per command the server ran, its calls and microseconds per acquisition. */
    private static final boolean COMMANDS = Boolean.getBoolean("hasp.hotlock.commands");
    /** How many times the rows run over, one round after another ({@code -Dhasp.hotlock.rounds}, default 1). */
    private static final int ROUNDS = Integer.getInteger("hasp.hotlock.rounds", 1);
    /** The most waits one thread records. */
    private static final int MAX_WAITS = 1 << 20;

    private HotLock() {
    }

    /** One library's side of a row: its locks, one per client, and the clients to close. */
    private record Side(String library, List<Lock> locks, List<AutoCloseable> clients) {
    }

    /** What one measured window saw; {@code clientWaits}: each client's waits, sorted. */
    private record Window(long acquisitions, double seconds, long scripts, double serverCpuSeconds,
            long[] perClient, long[] waitsNanos, long[][] clientWaits) {

        String row(String what) {
            long least = Arrays.stream(perClient).min().orElse(0);
            long most = Arrays.stream(perClient).max().orElse(0);
            return String.format(Locale.ROOT, "| %s | %,.0f | %.2f | %.0f | %,d / %,d | %.2f | %.1f | %.1f |", what,
                    acquisitions / seconds, (double) scripts / acquisitions,
                    serverCpuSeconds * 1e6 / acquisitions, least, most, least / mean(), percentile(0.50) / 1e6,
                    percentile(0.99) / 1e6);
        }

        double mean() {
            return Arrays.stream(perClient).average().orElse(0);
        }

        double percentile(double p) {
            return percentile(waitsNanos, p);
        }

        static double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            return sorted[Math.min(sorted.length - 1, (int) (p * sorted.length))];
        }
    }

    /**
     * Runs the rows and prints them as a Markdown table.
     *
     * @param args optional: seconds per row, then the client counts
     * @throws Exception when a row fails (a lost update, a client error)
     */
    public static void main(String[] args) throws Exception {
        if (!KIND.equals("reentrant") && !KIND.equals("write") && !KIND.equals("semaphore")) {
            throw new IllegalArgumentException("hasp.hotlock.kind must be reentrant, write or semaphore, not " + KIND);
        }
        if (LIBRARIES.isEmpty() || !List.of("hasp", "redisson").containsAll(LIBRARIES)) {
            throw new IllegalArgumentException("hasp.hotlock.libraries must list hasp and/or redisson, not " + LIBRARIES);
        }
        if (ROUNDS < 1) {
            throw new IllegalArgumentException("hasp.hotlock.rounds must be at least 1, not " + ROUNDS);
        }
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        boolean mixedOnly = args.length > 1 && args[1].equals("mixed");
        int[] counts = mixedOnly ? new int[0] : args.length > 1
                ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray() : new int[] {2, 8, 32, 64};
        RedisServer server = RedisServer.start();
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            System.out.println("redis " + info(probe, "server", "redis_version") + ", " + seconds + " s a row, "
                    + KIND + " lock, hold " + HOLD_MICROS + " us; least/mean: the least served client's share of the"
                    + " mean");
            System.out.println("| library, clients x threads | acquisitions/s | scripts per acquisition | server CPU"
                    + " per acquisition (us) | acquisitions of one client, least / most | least/mean | p50 wait (ms)"
                    + " | p99 wait (ms) |");
            System.out.println("|---|---:|---:|---:|---|---:|---:|---:|");
            // windows[library][row][round]
            Window[][][] windows = new Window[LIBRARIES.size()][counts.length][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int row = 0; row < counts.length; row++) {
                    int clients = counts[row];
                    for (int l = 0; l < LIBRARIES.size(); l++) {
                        String library = LIBRARIES.get(l);
                        Side side = side(library, server.uri(), "hot:" + library + ":" + clients, clients);
                        try {
                            Window window = run(probe, side.locks, threads(clients), seconds);
                            System.out.println(window.row(rowName(library, clients)));
                            windows[l][row][round] = window;
                        } finally {
                            close(side.clients);
                        }
                    }
                }
            }
            double[][] rates = medians(windows, counts);
            String svg = System.getProperty("hasp.hotlock.svg");
            boolean both = LIBRARIES.equals(List.of("hasp", "redisson"));
            if (svg != null && counts.length > 0 && both) {
                writeChart(Path.of(svg), counts, rates);
            }
            if (both) {
                mixed(probe, server.uri(), Math.max(seconds, 15));
            }
        } finally {
            server.stop();
        }
        System.exit(0);
    }

    private static int threads(int clients) {
        return clients == 2 ? 4 : 1;
    }

    private static String rowName(String library, int clients) {
        return library + ", " + clients + " x " + threads(clients);
    }

    /**
     * Each library's median acquisitions/s per row over the rounds; with more than one round, also prints a table
     * of each row's medians (rate, scripts and server CPU per acquisition, that CPU against the library's first row).
     */
    private static double[][] medians(Window[][][] windows, int[] counts) {
        double[][] rates = new double[LIBRARIES.size()][counts.length];
        if (ROUNDS > 1 && counts.length > 0) {
            System.out.println("medians over " + ROUNDS + " rounds:");
            System.out.println("| library, clients x threads | acquisitions/s | scripts per acquisition | server CPU"
                    + " per acquisition (us) | against the first row |");
            System.out.println("|---|---:|---:|---:|---:|");
        }
        for (int l = 0; l < LIBRARIES.size(); l++) {
            double firstCpu = 0;
            for (int row = 0; row < counts.length; row++) {
                Window[] rounds = windows[l][row];
                rates[l][row] = Medians.of(List.of(rounds), w -> w.acquisitions / w.seconds);
                double cpu = Medians.of(List.of(rounds), w -> w.serverCpuSeconds * 1e6 / w.acquisitions);
                if (row == 0) {
                    firstCpu = cpu;
                }
                if (ROUNDS > 1) {
                    System.out.printf(Locale.ROOT, "| %s | %,.0f | %.2f | %.0f | %.2fx |%n",
                            rowName(LIBRARIES.get(l), counts[row]), rates[l][row],
                            Medians.of(List.of(rounds), w -> (double) w.scripts / w.acquisitions), cpu, cpu / firstCpu);
                }
            }
        }
        return rates;
    }

    /** Writes each library's acquisitions/s against the clients on the lock (threads at 2 clients: 4 each). */
    private static void writeChart(Path file, int[] counts, double[][] rates) throws IOException {
        List<String> categories = Arrays.stream(counts).mapToObj(c -> c == 2 ? "2 x 4" : Integer.toString(c)).toList();
        String chart = new SvgChart("One hot lock, one thread per client (100 us hold)", "clients on the lock",
                "acquisitions/s", categories)
                .series("hasp", "#1f77b4", false, rates[0])
                .series("Redisson", "#d62728", true, rates[1])
                .render();
        Files.writeString(file, chart);
        System.out.println("chart: " + file);
    }

    /** One hasp client and one Redisson client, four threads each, on one lock: each library's share and waits. */
    private static void mixed(RedisProbe probe, String uri, int seconds) throws Exception {
        Side hasp = side("hasp", uri, "hot:mixed", 1);
        Side redisson = side("redisson", uri, "hot:mixed", 1);
        try {
            List<Lock> locks = List.of(hasp.locks.get(0), redisson.locks.get(0));
            run(probe, locks, 4, seconds);   // both libraries warmed up on the lock first, as two services that ran for a while
            Window window = run(probe, locks, 4, seconds);
            long total = window.acquisitions;
            System.out.println();
            System.out.printf(Locale.ROOT, "mixed, one hasp and one Redisson client x 4 threads, %d s: %,d acquisitions"
                    + " (%,.0f/s); hasp %,d (%.1f%%, p99 wait %.1f ms, longest %.1f ms), Redisson %,d (%.1f%%, p99 wait"
                    + " %.1f ms, longest %.1f ms)%n",
                    seconds, total, total / window.seconds, window.perClient[0], 100.0 * window.perClient[0] / total,
                    Window.percentile(window.clientWaits[0], 0.99) / 1e6, Window.percentile(window.clientWaits[0], 1.0) / 1e6,
                    window.perClient[1], 100.0 * window.perClient[1] / total,
                    Window.percentile(window.clientWaits[1], 0.99) / 1e6, Window.percentile(window.clientWaits[1], 1.0) / 1e6);
        } finally {
            close(hasp.clients);
            close(redisson.clients);
        }
    }

    private static Side side(String library, String uri, String name, int clients) {
        List<Lock> locks = new ArrayList<>();
        List<AutoCloseable> closing = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            if (library.equals("hasp")) {
                HaspClient client = HaspClient.create(uri);
                closing.add(client);
                if (KIND.equals("semaphore")) {
                    HaspSemaphore semaphore = client.getSemaphore(name);
                    semaphore.trySetPermits(1);
                    locks.add(new OnePermitLock(semaphore::acquire, semaphore::release));
                } else {
                    locks.add(KIND.equals("write") ? HaspReadWriteLocks.of(client).get(name).writeLock()
                            : client.getLock(name));
                }
            } else {
                Config config = new Config().setThreads(2).setNettyThreads(2);
                config.useSingleServer().setAddress(uri).setConnectionPoolSize(4).setConnectionMinimumIdleSize(1)
                        .setSubscriptionConnectionPoolSize(1).setSubscriptionConnectionMinimumIdleSize(1);
                RedissonClient client = Redisson.create(config);
                closing.add(client::shutdown);
                if (KIND.equals("semaphore")) {
                    RSemaphore semaphore = client.getSemaphore(name);
                    semaphore.trySetPermits(1);
                    locks.add(new OnePermitLock(semaphore::acquire, semaphore::release));
                } else {
                    locks.add(KIND.equals("write") ? client.getReadWriteLock(name).writeLock() : client.getLock(name));
                }
            }
        }
        return new Side(library, locks, closing);
    }

    /**
     * {@code threads} threads per lock of {@code locks} (one lock view per client) take turns for a warm-up and
     * then {@code seconds} measured; returns what the measured window saw.
     */
    private static Window run(RedisProbe probe, List<Lock> locks, int threads, int seconds) throws Exception {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        long[] counter = {0};
        long[][] perThread = new long[locks.size() * threads][];
        long[] everyAcquisition = new long[locks.size() * threads];   // warm-up included, each written by its thread
        List<Thread> workers = new ArrayList<>();
        for (int c = 0; c < locks.size(); c++) {
            for (int t = 0; t < threads; t++) {
                int index = c * threads + t;
                long[] waits = new long[MAX_WAITS + 1];   // [0]: how many recorded
                perThread[index] = waits;
                Lock lock = locks.get(c);
                Thread worker = new Thread(() -> {
                    while (!stop.get()) {
                        long since = System.nanoTime();
                        lock.lock();
                        try {
                            long granted = System.nanoTime();
                            counter[0]++;
                            everyAcquisition[index]++;
                            if (measuring.get() && waits[0] < MAX_WAITS) {
                                waits[(int) ++waits[0]] = granted - since;
                            }
                            while (System.nanoTime() - granted < TimeUnit.MICROSECONDS.toNanos(HOLD_MICROS)) {
                                Thread.onSpinWait();
                            }
                        } finally {
                            lock.unlock();
                        }
                    }
                }, "hot-lock-" + index);
                worker.start();
                workers.add(worker);
            }
        }
        Thread.sleep(2_000);   // warm-up: JIT, connections, subscriptions
        CommandStats stats0 = CommandStats.parse((String) probe.call("INFO", "commandstats"));
        long scripts0 = scripts(probe);
        ServerCpu cpu0 = ServerCpu.read(probe);
        long t0 = System.nanoTime();
        measuring.set(true);
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        long t1 = System.nanoTime();
        long scripts1 = scripts(probe);
        ServerCpu cpu1 = ServerCpu.read(probe);
        CommandStats stats1 = CommandStats.parse((String) probe.call("INFO", "commandstats"));
        stop.set(true);
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(60));
            if (worker.isAlive()) {
                throw new IllegalStateException(worker.getName() + " did not stop");
            }
        }
        long[] perClient = new long[locks.size()];
        long acquisitions = 0;
        int waitCount = 0;
        for (int i = 0; i < perThread.length; i++) {
            perClient[i / threads] += perThread[i][0];
            acquisitions += perThread[i][0];
            waitCount += (int) perThread[i][0];
        }
        long[] waits = new long[waitCount];
        long[][] clientWaits = new long[locks.size()][];
        int at = 0;
        for (int c = 0; c < locks.size(); c++) {
            int from = at;
            for (int t = 0; t < threads; t++) {
                long[] thread = perThread[c * threads + t];
                System.arraycopy(thread, 1, waits, at, (int) thread[0]);
                at += (int) thread[0];
            }
            clientWaits[c] = Arrays.copyOfRange(waits, from, at);
            Arrays.sort(clientWaits[c]);
        }
        Arrays.sort(waits);
        long every = Arrays.stream(everyAcquisition).sum();
        if (every == 0 || counter[0] != every) {
            throw new IllegalStateException("the counter under the lock reads " + counter[0] + " after " + every
                    + " acquisitions: two holders at once");
        }
        if (COMMANDS) {
            System.out.println(commands(stats0, stats1, acquisitions, cpu1.seconds() - cpu0.seconds(),
                    cpu1.kernelSeconds() - cpu0.kernelSeconds()));
        }
        return new Window(acquisitions, (t1 - t0) / 1e9, scripts1 - scripts0, cpu1.seconds() - cpu0.seconds(), perClient, waits, clientWaits);
    }

    /**
     * What the server ran per acquisition between two snapshots, for the row that follows: each command's calls and
     * microseconds (a script's include the commands it runs, which are listed too), and the server CPU not spent in
     * top-level commands (reading, writing, the event loop); then how much of the server's CPU was the kernel's
     * ({@code used_cpu_sys}: the sockets, waking the processes written to, the event loop's waits).
     */
    private static String commands(CommandStats before, CommandStats after, long acquisitions, double cpuSeconds,
            double kernelSeconds) {
        StringBuilder line = new StringBuilder("per acquisition of the next row:");
        if (acquisitions == 0) {
            return line.append(" none").toString();
        }
        for (String command : after.allCalls().keySet()) {
            long calls = after.calls(before, command);
            if (calls > 0) {
                line.append(String.format(Locale.ROOT, " %s %.2f (%.1f us)", command, (double) calls / acquisitions,
                        (double) after.micros(before, command) / acquisitions));
            }
        }
        double outside = cpuSeconds * 1e6 - after.busyMicros(before);
        line.append(String.format(Locale.ROOT, "; outside commands %.1f us; in the kernel %.1f us of %.1f",
                outside / acquisitions, kernelSeconds * 1e6 / acquisitions, cpuSeconds * 1e6 / acquisitions));
        return line.toString();
    }

    private static long scripts(RedisProbe probe) {
        CommandStats stats = CommandStats.parse((String) probe.call("INFO", "commandstats"));
        return stats.calls("evalsha") + stats.calls("eval");
    }

    private static String info(RedisProbe probe, String section, String field) {
        for (String line : ((String) probe.call("INFO", section)).split("\\R")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).strip();
            }
        }
        throw new IllegalStateException(field + ": not in INFO " + section);
    }

    private static void close(List<AutoCloseable> clients) throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
    }
}
