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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
 * ({@code -Dhasp.profile.rows=<regex>} runs only the rows in whose names the regex is found;
 * {@code -Dhasp.profile.threads=true} also prints each thread group's voluntary context switches per call)
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
        Pattern only = Pattern.compile(System.getProperty("hasp.profile.rows", ""));  // found in the row names
        List<String> rows = ROWS.stream().filter(row -> only.matcher(row).find()).toList();
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("-Dhasp.profile.rows=" + only + ": matches none of " + ROWS);
        }
        Map<String, List<double[]>> results = new HashMap<>();
        Path logs = Files.createTempDirectory("hasp-blocking-profile-");
        PeerServer postgres = null;
        Thread stopPostgres = null;
        try (RedisServer server = RedisServer.start()) {
            if (rows.stream().anyMatch(r -> r.startsWith("postgres"))) {
                postgres = startPostgres(logs);
                PeerServer started = postgres;
                stopPostgres = new Thread(() -> closeQuietly(started), "blocking-profile-stop");  // on Ctrl-C
                Runtime.getRuntime().addShutdownHook(stopPostgres);
            }
            for (int round = 1; round <= rounds; round++) {
                for (String row : rows) {
                    if (row.startsWith("postgres") && postgres == null) {
                        continue;
                    }
                    Figures figures = row.startsWith("postgres") ? measurePostgres(postgres.address(), threads, seconds)
                            : measure(server.uri(), row, threads, seconds);
                    results.computeIfAbsent(row, r -> new ArrayList<>()).add(figures.perCall());
                    System.out.printf(Locale.ROOT, "round %d %-29s %,.0f calls/s%n", round, row, figures.perCall()[0]);
                    if (Boolean.getBoolean("hasp.profile.threads")) {
                        figures.switchesByThread().forEach((group, perCall) -> System.out.printf(Locale.ROOT,
                                "  voluntary switches per call, %-16s %.3f%n", group, perCall));
                    }
                }
            }
        } finally {
            if (stopPostgres != null) {
                Runtime.getRuntime().removeShutdownHook(stopPostgres);
            }
            closeQuietly(postgres);
            try (Stream<Path> files = Files.walk(logs)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        System.out.println(table(results, threads, seconds, rounds));
        System.exit(0);
    }

    /** A private PostgreSQL server, or {@code null} (and the reason printed) where it cannot run. */
    private static PeerServer startPostgres(Path logs) {
        try {
            return PeerServer.Kind.POSTGRES.start(logs);
        } catch (PeerServer.Unavailable e) {
            System.out.println("postgres advisory lock+unlock: left out, " + e.getMessage());
            return null;
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception e) {
                System.err.println("closing " + closeable + ": " + e);
            }
        }
    }

    /** One row once: warm-up, then the measured window; returns the {@link #FIGURES}, per call. */
    static Figures measure(String uri, String row, int threads, int seconds) throws Exception {
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
            Workers workers = new Workers();
            for (int i = 0; i < threads; i++) {
                String key = "bench:blocking:" + row.replace(' ', '-') + ':' + i + ':' + System.nanoTime();
                Call call = switch (row) {
                    case "hasp evalsha" -> () -> hasp.commands().evalsha(script, Replies.NULL_OR_LONG,
                            AcquireScriptText.keys(key), (Object[]) argv).join();
                    case "lettuce evalsha" -> () -> measured.sync().evalsha(sha, ScriptOutputType.INTEGER,
                            AcquireScriptText.keys(key).toArray(String[]::new), argv);
                    default -> {
                        Lock lock = hasp != null ? hasp.getLock(key) : redisson.getLock(key);
                        yield () -> {
                            lock.lock();
                            lock.unlock();
                        };
                    }
                };
                workers.add(call);
            }
            return workers.measure(List.of(serverPid), seconds);
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
     * hasp's default configuration, or with {@code -Dhasp.profile.poolSize=N},
     * {@code -Dhasp.profile.eventLoopThreads=N} and {@code -Dhasp.profile.directConnections=N} for an A/B run
     * of those settings.
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
        Integer direct = Integer.getInteger("hasp.profile.directConnections");
        if (direct != null) {
            config.directConnections(direct);
        }
        return config.build();
    }

    /**
     * The PostgreSQL row once: each thread, on its own session, takes and releases an advisory lock on its
     * own key; the server's CPU is that of the sessions' backends. Every session is open before any thread
     * starts; a session waits at most 30 s for an answer.
     */
    static Figures measurePostgres(String jdbcUrl, int threads, int seconds) throws Exception {
        List<AdvisoryLock> locks = new ArrayList<>();
        try {
            List<Long> backends = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                AdvisoryLock lock = AdvisoryLock.connect(jdbcUrl + "&socketTimeout=30",
                        "bench:blocking:postgres:" + i + ':' + System.nanoTime());
                locks.add(lock);
                backends.add(lock.backendPid());
            }
            Workers workers = new Workers();
            for (AdvisoryLock lock : locks) {
                workers.add(() -> {
                    lock.lock();
                    lock.unlock();
                });
            }
            return workers.measure(backends, seconds);
        } finally {
            locks.forEach(BlockingCallProfile::closeQuietly);
        }
    }

    /** One blocking call of a row. */
    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    /**
     * A row's threads, each making one call after another until stopped: the first failure of any of them
     * fails the row, and they are stopped and joined however the measurement ends.
     */
    private static final class Workers {
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicLong calls = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        void add(Call call) {
            Thread thread = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        call.run();
                        calls.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    stop.set(true);
                }
            }, "blocking-profile-" + threads.size());
            threads.add(thread);
            thread.start();
        }

        /** Warm-up, then the measured window; stops the threads and returns the figures per call. */
        Figures measure(List<Long> serverPids, int seconds) throws Exception {
            try {
                Thread.sleep(seconds * 1000L);  // warm-up: JIT, connections, pools
                Snapshot before = Snapshot.take(serverPids, calls.get());
                Thread.sleep(seconds * 1000L);  // the measured window
                Snapshot after = Snapshot.take(serverPids, calls.get());
                stopAndJoin();
                if (after.calls() == before.calls()) {
                    throw new IllegalStateException("no call completed in the measured window");
                }
                return after.since(before);
            } finally {
                stopAndJoin();
            }
        }

        private void stopAndJoin() throws Exception {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(60));
                if (thread.isAlive()) {
                    throw new IllegalStateException(thread.getName() + " is still in a call 60 s after the window");
                }
            }
            Throwable failed = failure.get();
            if (failed != null) {
                throw new IllegalStateException("a call failed: " + failed, failed);
            }
        }
    }

    /**
     * One measured window: the {@link #FIGURES} per call, and each thread group's voluntary context switches
     * per call (threads named alike, digits aside, form a group).
     */
    record Figures(double[] perCall, Map<String, Double> switchesByThread) {
    }

    /** The process's counters at one moment. */
    private record Snapshot(long nanos, long calls, long cpuTicks, Map<String, ThreadSwitches> switches, long syscr,
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

        Figures since(Snapshot before) {
            double n = Math.max(1, calls - before.calls);
            long vol = 0;
            long invol = 0;
            Map<String, Double> byGroup = new TreeMap<>();
            for (Map.Entry<String, ThreadSwitches> e : switches.entrySet()) {
                ThreadSwitches was = before.switches.get(e.getKey());
                if (was != null) {  // threads alive over the whole window
                    long voluntary = e.getValue().voluntary() - was.voluntary();
                    vol += voluntary;
                    invol += e.getValue().involuntary() - was.involuntary();
                    byGroup.merge(e.getValue().group(), voluntary / n, Double::sum);
                }
            }
            byGroup.values().removeIf(perCall -> perCall < 0.005);
            double usPerTick = 1e6 / 100;  // USER_HZ
            return new Figures(new double[] {n / ((nanos - before.nanos) / 1e9),
                (cpuTicks - before.cpuTicks) * usPerTick / n, vol / n, invol / n, (syscr - before.syscr) / n,
                (syscw - before.syscw) / n, (allocated - before.allocated) / n,
                (serverTicks - before.serverTicks) * usPerTick / n}, byGroup);
        }

        /** A thread's context switches so far, and its group: its name with digits as N (at most 15 characters). */
        private record ThreadSwitches(String group, long voluntary, long involuntary) {
        }

        /** The context switches of each thread of this process, by thread id. */
        private static Map<String, ThreadSwitches> readSwitches() throws IOException {
            Map<String, ThreadSwitches> byThread = new HashMap<>();
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                for (Path task : tasks) {
                    try {
                        Map<String, String> status = fields(Files.readString(task.resolve("status")), ":");
                        String group = Files.readString(task.resolve("comm")).strip().replaceAll("[0-9]+", "N");
                        byThread.put(task.getFileName().toString(), new ThreadSwitches(group,
                                Long.parseLong(status.get("voluntary_ctxt_switches").strip()),
                                Long.parseLong(status.get("nonvoluntary_ctxt_switches").strip())));
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
