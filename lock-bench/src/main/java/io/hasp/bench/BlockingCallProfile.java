package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.bench.peer.AdvisoryLock;
import io.hasp.bench.peer.PeerServer;
import io.hasp.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.redisson.api.RedissonClient;

/**
 * Where a blocking call's time goes, per call, for hasp and its peers in one run: N threads each make
 * one blocking call after another on their own key (a synchronous EVALSHA of the lock's acquire script,
 * hasp against Lettuce; or an uncontended lock+unlock pair, hasp against Redisson and against PostgreSQL's
 * session-level advisory lock, each thread on its own connection), and over a measured
 * window this reports, per call: the calls per second, this JVM's CPU time, its threads' context
 * switches (voluntary and not, from {@code /proc/self/task/*}/status), its read- and write-type system
 * calls ({@code syscr}/{@code syscw} of {@code /proc/self/io}: read, recv, write, send and their vector
 * forms; not epoll), the bytes its threads allocated, and the server's CPU time (redis-server's, or that of the PostgreSQL
 * backends serving the row's sessions). Each row runs
 * {@code rounds} times, the rows taking turns, and the table gives the median and the range: on a
 * shared machine these figures move by a third from one run to the next. Linux and a local server only.
 *
 * <p>Run: {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.BlockingCallProfile [threads] [seconds] [rounds]}
 * ({@code -Dhasp.profile.rows=<regex>} runs only the rows whose names match)
 * (defaults 8, 4, 3; it starts its own redis-server, and a private PostgreSQL server as {@code bench.sh} does;
 * where PostgreSQL cannot run, its row is left out and the run says why).
 */
public final class BlockingCallProfile {

    private static final List<String> ROWS = List.of("hasp evalsha", "lettuce evalsha", "hasp lock+unlock",
            "redisson lock+unlock", "postgres advisory lock+unlock");
    private static final String[] FIGURES = {"calls/s", "client CPU us", "ctx switches (vol)", "ctx switches (invol)",
        "read syscalls", "write syscalls", "bytes allocated", "server CPU us"};

    private BlockingCallProfile() {
    }

    /**
     * Command line: {@code [threads] [seconds] [rounds]}.
     *
     * @param args the arguments
     * @throws Exception when the run fails
     */
    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String only = System.getProperty("hasp.profile.rows", ".*");   // a regex over the row names
        RedisServer server = RedisServer.start();
        PeerServer postgres = null;
        Path logs = Files.createTempDirectory("hasp-blocking-profile-");
        try {
            postgres = ROWS.stream().anyMatch(r -> r.startsWith("postgres") && r.matches(only))
                    ? PeerServer.Kind.POSTGRES.start(logs) : null;
        } catch (PeerServer.Unavailable e) {
            System.out.println("postgres advisory lock+unlock: left out, " + e.getMessage());
        }
        Map<String, List<double[]>> results = new HashMap<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                for (String row : ROWS) {
                    if (!row.matches(only) || row.startsWith("postgres") && postgres == null) {
                        continue;
                    }
                    double[] figures = row.startsWith("postgres") ? measurePostgres(postgres.address(), threads, seconds)
                            : measure(server.uri(), row, threads, seconds);
                    results.computeIfAbsent(row, r -> new ArrayList<>()).add(figures);
                    System.out.printf(Locale.ROOT, "round %d %-22s %,.0f calls/s%n", round, row, figures[0]);
                }
            }
        } finally {
            server.stop();
            if (postgres != null) {
                postgres.close();
            }
            try (var files = Files.walk(logs)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        System.out.println(table(results, threads, seconds, rounds));
        System.exit(0);
    }

    /** One row once: warm-up, then the measured window; returns the {@link #FIGURES}, per call. */
    static double[] measure(String uri, String row, int threads, int seconds) throws Exception {
        HaspClient hasp = row.startsWith("hasp") ? HaspClient.create(haspConfig(uri)) : null;
        RedissonClient redisson = row.startsWith("redisson") ? Peers.redisson(uri) : null;
        RedisClient lettuce = RedisClient.create(uri);
        StatefulRedisConnection<String, String> stats = lettuce.connect();
        StatefulRedisConnection<String, String> measured = row.startsWith("lettuce") ? lettuce.connect() : null;
        try {
            long serverPid = Long.parseLong(field(stats.sync().info("server"), "process_id"));
            String sha = stats.sync().scriptLoad(AcquireScriptText.text());
            Script script = Script.of("acquire", AcquireScriptText.text());
            String[] argv = {AcquireScriptText.LEASE_MILLIS, AcquireScriptText.OWNER, AcquireScriptText.COUNT};
            AtomicLong calls = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String key = "bench:blocking:" + row.replace(' ', '-') + ':' + i + ':' + System.nanoTime();
                Runnable call = switch (row) {
                    case "hasp evalsha" -> () -> hasp.commands().evalsha(script, Replies.NULL_OR_LONG, List.of(key),
                            (Object[]) argv).join();
                    case "lettuce evalsha" -> () -> measured.sync().evalsha(sha, ScriptOutputType.INTEGER,
                            new String[] {key}, argv);
                    default -> {
                        Lock lock = hasp != null ? hasp.getLock(key) : redisson.getLock(key);
                        yield () -> {
                            lock.lock();
                            lock.unlock();
                        };
                    }
                };
                Thread worker = new Thread(() -> {
                    while (!stop.get()) {
                        call.run();
                        calls.incrementAndGet();
                    }
                }, "blocking-profile-" + i);
                worker.start();
                workers.add(worker);
            }
            return window(workers, stop, calls, List.of(serverPid), seconds);
        } finally {
            if (measured != null) {
                measured.close();
            }
            stats.close();
            lettuce.shutdown();
            if (hasp != null) {
                hasp.close();
            }
            if (redisson != null) {
                redisson.shutdown();
            }
        }
    }

    /**
     * hasp's default configuration, or with {@code -Dhasp.profile.poolSize=N} and
     * {@code -Dhasp.profile.eventLoopThreads=N} for an A/B run of those settings.
     */
    private static HaspConfig haspConfig(String uri) {
        HaspConfig.Builder config = HaspConfig.builder().uri(uri);
        Integer pool = Integer.getInteger("hasp.profile.poolSize");
        if (pool != null) {
            config.poolSize(pool);
        }
        Integer loops = Integer.getInteger("hasp.profile.eventLoopThreads");
        if (loops != null) {
            config.eventLoopThreads(loops);
        }
        return config.build();
    }

    /**
     * The PostgreSQL row once: each thread, on its own session, takes and releases an advisory lock on its
     * own key; the server's CPU is that of the sessions' backends.
     */
    static double[] measurePostgres(String jdbcUrl, int threads, int seconds) throws Exception {
        List<AdvisoryLock> locks = new ArrayList<>();
        try {
            List<Long> backends = new ArrayList<>();
            AtomicLong calls = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                AdvisoryLock lock = AdvisoryLock.connect(jdbcUrl, "bench:blocking:postgres:" + i + ':' + System.nanoTime());
                locks.add(lock);
                backends.add(lock.backendPid());
                Thread worker = new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            lock.lock();
                            lock.unlock();
                            calls.incrementAndGet();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException("postgres advisory lock+unlock failed", e);
                    }
                }, "blocking-profile-" + i);
                worker.start();
                workers.add(worker);
            }
            return window(workers, stop, calls, backends, seconds);
        } finally {
            for (AdvisoryLock lock : locks) {
                lock.close();
            }
        }
    }

    /** Warm-up, then the measured window over the running workers; stops them and returns the figures. */
    private static double[] window(List<Thread> workers, AtomicBoolean stop, AtomicLong calls, List<Long> serverPids,
            int seconds) throws Exception {
        Thread.sleep(seconds * 1000L);  // warm-up: JIT, connections, pools
        Snapshot before = Snapshot.take(serverPids, calls.get());
        Thread.sleep(seconds * 1000L);  // the measured window
        Snapshot after = Snapshot.take(serverPids, calls.get());
        stop.set(true);
        for (Thread worker : workers) {
            worker.join();
        }
        return after.perCallSince(before);
    }

    /** The process's counters at one moment. */
    private record Snapshot(long nanos, long calls, long cpuTicks, Map<String, long[]> switches, long syscr,
            long syscw, long allocated, long serverTicks) {

        static Snapshot take(List<Long> serverPids, long calls) throws IOException {
            long serverTicks = 0;
            for (long pid : serverPids) {
                serverTicks += CpuBreakdown.cpuTicks(pid);
            }
            long self = ProcessHandle.current().pid();
            Map<String, String> io = fields(Files.readString(Path.of("/proc/self/io")), ": ");
            return new Snapshot(System.nanoTime(), calls, CpuBreakdown.cpuTicks(self), readSwitches(),
                    Long.parseLong(io.get("syscr")), Long.parseLong(io.get("syscw")), readAllocated(),
                    serverTicks);
        }

        double[] perCallSince(Snapshot before) {
            double n = Math.max(1, calls - before.calls);
            long vol = 0;
            long invol = 0;
            Map<String, Double> byGroup = new java.util.TreeMap<>();
            for (Map.Entry<String, long[]> e : switches.entrySet()) {
                long[] was = before.switches.get(e.getKey());
                if (was != null) {  // threads alive over the whole window
                    vol += e.getValue()[0] - was[0];
                    invol += e.getValue()[1] - was[1];
                    if (Boolean.getBoolean("hasp.profile.threads")) {
                        byGroup.merge(e.getKey().substring(e.getKey().indexOf(' ') + 1),
                                (e.getValue()[0] - was[0]) / n, Double::sum);
                    }
                }
            }
            byGroup.forEach((group, perCall) -> {
                if (perCall >= 0.005) {
                    System.out.printf(Locale.ROOT, "  voluntary switches per call, %-16s %.3f%n", group, perCall);
                }
            });
            double usPerTick = 1e6 / 100;  // USER_HZ
            return new double[] {n / ((nanos - before.nanos) / 1e9), (cpuTicks - before.cpuTicks) * usPerTick / n,
                vol / n, invol / n, (syscr - before.syscr) / n, (syscw - before.syscw) / n,
                (allocated - before.allocated) / n, (serverTicks - before.serverTicks) * usPerTick / n};
        }

        /** Voluntary and involuntary context switches of each thread of this process, by thread id. */
        private static Map<String, long[]> readSwitches() throws IOException {
            Map<String, long[]> byThread = new HashMap<>();
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                for (Path task : tasks) {
                    try {
                        Map<String, String> status = fields(Files.readString(task.resolve("status")), ":");
                        String name = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "N");
                        byThread.put(task.getFileName().toString() + ' ' + name, new long[] {
                            Long.parseLong(status.get("voluntary_ctxt_switches").strip()),
                            Long.parseLong(status.get("nonvoluntary_ctxt_switches").strip())});
                    } catch (IOException gone) {
                        // the thread ended while being read
                    }
                }
            }
            return byThread;
        }

        /** Bytes allocated so far by the live threads of this JVM. */
        private static long readAllocated() {
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long total = 0;
            for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
                total += Math.max(0, bytes);
            }
            return total;
        }
    }

    private static Map<String, String> fields(String text, String separator) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\\R")) {
            int at = line.indexOf(separator);
            if (at > 0) {
                fields.put(line.substring(0, at), line.substring(at + separator.length()).strip());
            }
        }
        return fields;
    }

    private static String field(String info, String name) {
        for (String line : info.split("\\R")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        throw new IllegalStateException(name + ": not in INFO");
    }

    /** The markdown table: one line per row and figure column, median and range over the rounds. */
    static String table(Map<String, List<double[]>> results, int threads, int seconds, int rounds) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%d threads, %d s warm-up + %d s measured per row, %d rounds (rows "
                + "taking turns); per call: median (lowest-highest)%n%n", threads, seconds, seconds, rounds));
        md.append("| Row |");
        for (String figure : FIGURES) {
            md.append(' ').append(figure).append(" |");
        }
        md.append("\n|---|");
        md.append("---:|".repeat(FIGURES.length)).append('\n');
        for (String row : ROWS) {
            List<double[]> runs = results.get(row);
            if (runs == null) {
                continue;
            }
            md.append("| ").append(row).append(" |");
            for (int f = 0; f < FIGURES.length; f++) {
                List<Double> values = new ArrayList<>();
                for (double[] run : runs) {
                    values.add(run[f]);
                }
                values.sort(null);
                String format = f == 0 || f == 6 ? "%,.0f" : "%.2f";
                md.append(' ').append(String.format(Locale.ROOT, format, values.get(values.size() / 2)))
                        .append(" (").append(String.format(Locale.ROOT, format, values.get(0))).append('-')
                        .append(String.format(Locale.ROOT, format, values.get(values.size() - 1))).append(") |");
            }
            md.append('\n');
        }
        return md.toString();
    }
}
