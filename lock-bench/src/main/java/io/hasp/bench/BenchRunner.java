package io.hasp.bench;

import io.hasp.bench.fleet.FleetDriver;
import io.hasp.bench.lock.ClusterLockBenchmark;
import io.hasp.bench.lock.ReplicaLockBenchmark;
import io.hasp.bench.fleet.FleetRuns;
import io.hasp.bench.peer.Peer;
import io.hasp.bench.peer.PeerServers;
import io.hasp.bench.report.MarkdownReport;
import io.hasp.bench.report.PeerTable;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisServer;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the whole comparison in one command and writes one results folder: the server's EVALSHA ceiling
 * ({@code redis-benchmark}), every JMH row for hasp, Redisson and Lettuce on one redis-server, the rows
 * of the locks users pick instead ({@link io.hasp.bench.peer.Peer}: PostgreSQL, MariaDB and ZooKeeper,
 * each started here only when a selected row needs it), the cross-process fleets, then
 * {@code results.json} (JMH), {@code results.md} (the tables) and {@code throughput.svg} (the chart).
 *
 * <p>Run: {@code lock-bench/bench.sh [--full] [--redis URI] [--out DIR] [--only REGEX] [--no-fleet]}
 * (which builds {@code lock-bench/target/benchmarks.jar} and calls
 * {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.BenchRunner ...}). Without {@code --redis} it
 * starts a private redis-server (the test fixture's binary resolution) and stops it at the end.
 */
public final class BenchRunner {

    /** How long and how often each row is measured. */
    record Profile(String name, int forks, int warmupIterations, int warmupSeconds, int iterations,
            int iterationSeconds, int fleetSeconds, int fleetRuns, long ceilingRequests) {
    }

    static final Profile QUICK = new Profile("quick", 1, 2, 2, 5, 1, 6, 1, 500_000);
    static final Profile FULL = new Profile("full", 2, 4, 2, 5, 5, 20, 3, 3_000_000);
    /** Checks that every part runs, in a few minutes; its figures mean nothing. */
    static final Profile SMOKE = new Profile("smoke", 1, 1, 1, 1, 1, 2, 2, 100_000);

    /** Same flags for every fork, whichever library it measures. */
    static final List<String> FORK_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC");

    /** Fleets run by the cross-process part: processes x threads. */
    static final int[][] FLEETS = {{2, 4}, {2, 1}, {1, 1}};

    /** The fleet the peer locks run, beside hasp's run of the same shape: processes x threads. */
    static final int[] PEER_FLEET = FLEETS[0];

    private final Profile profile;
    private final Path out;
    private final Pattern only;
    private final boolean fleets;
    private final String givenUri;
    private String clusterUri;   // the cluster started for the cluster rows, while they run
    private String replicaUris;  // the master and replica started for the replica rows, while they run
    private List<String> peerArguments = List.of();   // -D options naming the peer servers, while they run
    private Map<Peer, String> peerSkipped = Map.of();
    private final List<String> commandLine;
    private final PrintStream console = System.out;
    private String loadAtStart = "?";

    private BenchRunner(Profile profile, Path out, Pattern only, boolean fleets, String givenUri, List<String> commandLine) {
        this.profile = profile;
        this.out = out;
        this.only = only;
        this.fleets = fleets;
        this.givenUri = givenUri;
        this.commandLine = commandLine;
    }

    /**
     * Command line: {@code [--full] [--redis URI] [--out DIR] [--only REGEX] [--no-fleet]}.
     *
     * @param args the arguments
     * @throws Exception when the run cannot be completed
     */
    public static void main(String[] args) throws Exception {
        Profile profile = QUICK;
        Path out = null;
        Pattern only = null;
        boolean fleets = true;
        String uri = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--full" -> profile = FULL;
                case "--quick" -> profile = QUICK;
                case "--smoke" -> profile = SMOKE;
                case "--redis" -> uri = value(args, ++i, "--redis");
                case "--out" -> out = Path.of(value(args, ++i, "--out"));
                case "--only" -> only = Pattern.compile(value(args, ++i, "--only"));
                case "--no-fleet" -> fleets = false;
                default -> {
                    System.err.println("unknown argument: " + args[i]
                            + " (expected: --full, --smoke, --redis URI, --out DIR, --only REGEX, --no-fleet)");
                    System.exit(2);
                }
            }
        }
        if (out == null) {
            out = Path.of("lock-bench", "results", profile.name());
        }
        new BenchRunner(profile, out, only, fleets, uri, List.of(args)).run();
        System.exit(0);
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length) {
            System.err.println(flag + ": missing value");
            System.exit(2);
        }
        return args[index];
    }

    private void run() throws IOException {
        Instant started = Instant.now();
        loadAtStart = Machine.loadAverage();
        Files.createDirectories(out.resolve("logs"));
        RedisServer server = null;
        String uri = givenUri;
        if (uri == null) {
            server = RedisServer.start();
            uri = server.uri();
            console.println("started redis-server " + server.version() + " at " + uri + " (" + server.binary() + ")");
        }
        try {
            execute(uri, server, started);
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    private void execute(String uri, RedisServer server, Instant started) throws IOException {
        RedisURI target = RedisURI.create(uri);
        RedisClient lettuce = RedisClient.create(target);
        String redisVersion;
        ServerCeiling.Result ceiling;
        ServerCeiling.Result pairCeiling;
        try (StatefulRedisConnection<String, String> connection = lettuce.connect()) {
            redisVersion = infoField(connection.sync().info("server"), "redis_version");
            ceiling = ceiling(connection, target, server);
            pairCeiling = ceiling.measured() ? pairCeiling(connection, target, server)
                    : new ServerCeiling.Result("redis-benchmark", 0, ceiling.detail());
        } finally {
            lettuce.shutdown();
        }

        List<Row> rows = Catalog.rows();
        List<PeerRow> peerRows = Catalog.peerRows();
        Map<String, Measurement> measurements = Catalog.measurements(rows, peerRows);
        if (only != null) {
            measurements.values().removeIf(m -> !only.matcher(m.key()).find());
        }
        Map<String, RunResult> results = new LinkedHashMap<>();
        RedisCluster cluster = null;
        if (measurements.values().stream().anyMatch(m -> m.benchmark() == ClusterLockBenchmark.class)) {
            cluster = RedisCluster.start();
            clusterUri = cluster.uri();
            console.println("started a Redis Cluster (3 masters, 3 replicas) at " + clusterUri + " for the cluster rows");
        }
        RedisServer[] replicaPair = null;
        if (measurements.values().stream().anyMatch(m -> m.benchmark() == ReplicaLockBenchmark.class)) {
            replicaPair = ReplicaEnvironment.startPair();
            replicaUris = replicaPair[0].uri() + "," + replicaPair[1].uri();
            console.println("started a master and its replica at " + replicaUris + " for the replica rows");
        }
        List<FleetRuns> fleetResults = new ArrayList<>();
        List<FleetRuns> peerFleetResults = new ArrayList<>();
        boolean fleetsSelected = fleets && (only == null || only.matcher("fleet").find());
        try (PeerServers peers = PeerServers.startFor(measurements.values(), out.resolve("logs"), console)) {
            measurements.values().removeIf(m -> peers.skips(m));
            peerArguments = peers.forkArguments();
            peerSkipped = peers.skipped();
            measureAll(measurements, uri, results);
            if (cluster != null) {
                cluster.close();
                cluster = null;
            }
            replicaPair = closePair(replicaPair);
            if (fleetsSelected) {
                fleetResults.addAll(fleets(uri, List.of("hasp", "redisson"), FLEETS));
                List<String> measured = peers.running().stream().map(Peer::method).toList();
                if (!measured.isEmpty()) {
                    peerFleetResults.addAll(fleets(uri, measured, new int[][] {PEER_FLEET}));
                }
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            closePair(replicaPair);
        }

        try (PrintStream json = new PrintStream(Files.newOutputStream(out.resolve("results.json")), true,
                StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, json).writeOut(results.values());
        }
        MarkdownReport report = new MarkdownReport(rows, results, ceiling, pairCeiling, fleetResults);
        String markdown = report.render(heading(redisVersion, ceiling, pairCeiling, started))
                + new PeerTable(peerRows, results, peerSkipped, hasp(fleetResults, PEER_FLEET), peerFleetResults,
                        profile.forks() > 1).render();
        Files.writeString(out.resolve("results.md"), markdown);
        Files.writeString(out.resolve("throughput.svg"), report.chart());
        console.println();
        console.println(markdown);
        console.println("wrote " + out.resolve("results.md") + ", " + out.resolve("throughput.svg") + ", "
                + out.resolve("results.json") + " in " + ChronoUnit.SECONDS.between(started, Instant.now()) + " s");
    }

    /** Measures each selected execution in turn, filing results by key; a failed one is reported and skipped. */
    private void measureAll(Map<String, Measurement> measurements, String uri, Map<String, RunResult> results) {
        int index = 0;
        for (Measurement m : measurements.values()) {
            index++;
            console.printf(Locale.ROOT, "[%d/%d] %s, %d thread%s ... ", index, measurements.size(),
                    m.benchmark().getSimpleName() + "." + m.method(), m.threads(), m.threads() == 1 ? "" : "s");
            console.flush();
            long t0 = System.nanoTime();
            try {
                RunResult result = measure(m, uri, index);
                results.put(m.key(), result);
                Result<?> gc = result.getSecondaryResults().get("gc.alloc.rate.norm");
                console.printf(Locale.ROOT, "%,.0f %s, %s B/op (%d s)%n", MarkdownReport.median(result.getPrimaryResult().getStatistics()),
                        result.getPrimaryResult().getScoreUnit(), gc == null ? "?" : String.format(Locale.ROOT, "%,.0f",
                                gc.getScore()), (System.nanoTime() - t0) / 1_000_000_000L);
            } catch (RunnerException | RuntimeException e) {
                console.println("FAILED: " + e.getMessage() + " (see " + log(index, m) + ")");
            }
        }
    }

    /** Runs each fleet shape for each library, the libraries taking turns run by run. */
    private List<FleetRuns> fleets(String uri, List<String> libraries, int[][] shapes) {
        List<FleetRuns> all = new ArrayList<>();
        for (int[] shape : shapes) {
            Map<String, List<FleetDriver.Result>> runs = new LinkedHashMap<>();
            for (int run = 1; run <= profile.fleetRuns(); run++) {
                for (String library : libraries) {
                    FleetDriver.Result r = fleet(uri, library, shape[0], shape[1], run);
                    if (r != null) {
                        runs.computeIfAbsent(library, k -> new ArrayList<>()).add(r);
                    }
                }
            }
            runs.values().forEach(list -> all.add(new FleetRuns(list)));
        }
        return all;
    }

    /** hasp's runs of one fleet shape, or null. */
    private static FleetRuns hasp(List<FleetRuns> fleets, int[] shape) {
        for (FleetRuns runs : fleets) {
            FleetDriver.Result shown = runs.shown();
            if (shown.library().equals("hasp") && shown.processes() == shape[0] && shown.threads() == shape[1]) {
                return runs;
            }
        }
        return null;
    }

    /** Runs one fleet once; prints what it did, or why it failed (then returns null). */
    private FleetDriver.Result fleet(String uri, String library, int processes, int threads, int run) {
        console.printf(Locale.ROOT, "[fleet] %s, %d JVM%s x %d thread%s, %d s%s ... ", library, processes,
                processes == 1 ? "" : "s", threads, threads == 1 ? "" : "s", profile.fleetSeconds(),
                profile.fleetRuns() == 1 ? "" : String.format(Locale.ROOT, ", run %d of %d", run, profile.fleetRuns()));
        console.flush();
        try {
            FleetDriver.Result r = FleetDriver.run(uri, library, processes, threads, profile.fleetSeconds(),
                    peerArguments);
            console.printf(Locale.ROOT, "%,.0f critical sections/s over %.1f s, counter %s; %s%n",
                    r.perSecond(), r.seconds(), r.exact() ? "exact (" + r.counter() + ")"
                            : "WRONG: " + r.counter() + " of " + r.expected(), FleetDriver.describe(r));
            return r;
        } catch (RuntimeException e) {
            console.println("FAILED: " + e.getMessage());
            return null;
        }
    }

    private ServerCeiling.Result ceiling(StatefulRedisConnection<String, String> connection, RedisURI target,
            RedisServer server) {
        Optional<Path> tool = ServerCeiling.findRedisBenchmark(server == null ? null : server.binary());
        if (tool.isEmpty()) {
            console.println("[ceiling] n/a: redis-benchmark is not on the PATH");
            return new ServerCeiling.Result("redis-benchmark", 0, "n/a: redis-benchmark not found");
        }
        if (only != null && !only.matcher("ceiling").find()) {
            return new ServerCeiling.Result("redis-benchmark", 0, "n/a: not selected by --only");
        }
        String sha;
        try {
            sha = connection.sync().scriptLoad(AcquireScriptText.text());
        } catch (IllegalStateException e) {
            console.println("[ceiling] n/a: " + e.getMessage());
            return new ServerCeiling.Result("redis-benchmark", 0, "n/a: " + e.getMessage());
        }
        console.printf("[ceiling] redis-benchmark EVALSHA, %d clients x pipeline %d ... ", ServerCeiling.CLIENTS,
                ServerCeiling.PIPELINE);
        console.flush();
        ServerCeiling.Result result = ServerCeiling.measure(tool.get(), target.getHost(), target.getPort(), sha,
                profile.ceilingRequests());
        console.println(result.measured() ? String.format(Locale.ROOT, "%,.0f calls/s", result.requestsPerSecond())
                : result.detail());
        return result;
    }

    /**
     * The server's ceiling on lock+unlock pairs ({@link LockPairScriptText}), and the bound for
     * {@link ServerCeiling#BLOCKING_CALLERS} blocking callers (kept in {@link #blockingAcquires} and
     * {@link #blockingPairs}); then the unlock latches the calls left behind are removed, so that their
     * expiry does not load the rows measured next.
     */
    /** The acquire script with {@link ServerCeiling#BLOCKING_CALLERS} unpipelined connections, once measured. */
    private ServerCeiling.Result blockingAcquires = new ServerCeiling.Result("redis-benchmark", 0, "not measured");
    /** The pair script with {@link ServerCeiling#BLOCKING_CALLERS} unpipelined connections, once measured. */
    private ServerCeiling.Result blockingPairs = new ServerCeiling.Result("redis-benchmark", 0, "not measured");

    private ServerCeiling.Result pairCeiling(StatefulRedisConnection<String, String> connection, RedisURI target,
            RedisServer server) {
        Path tool = ServerCeiling.findRedisBenchmark(server == null ? null : server.binary()).orElseThrow();
        String sha = connection.sync().scriptLoad(LockPairScriptText.text());
        console.printf("[ceiling] redis-benchmark lock+unlock pairs (both scripts in one EVALSHA), %d clients x "
                + "pipeline %d ... ", ServerCeiling.CLIENTS, ServerCeiling.PIPELINE);
        console.flush();
        ServerCeiling.Result result = ServerCeiling.measurePairs(tool, target.getHost(), target.getPort(), sha,
                profile.ceilingRequests());
        console.println(result.measured() ? String.format(Locale.ROOT, "%,.0f pairs/s", result.requestsPerSecond())
                : result.detail());
        if (result.measured()) {
            console.printf("[ceiling] %d blocking callers, one command in flight each (-c %d -P 1) ... ",
                    ServerCeiling.BLOCKING_CALLERS, ServerCeiling.BLOCKING_CALLERS);
            console.flush();
            long requests = profile.ceilingRequests() / 2;
            blockingAcquires = ServerCeiling.measure(tool, target.getHost(), target.getPort(),
                    connection.sync().scriptLoad(AcquireScriptText.text()), requests, ServerCeiling.BLOCKING_CALLERS, 1);
            blockingPairs = ServerCeiling.measurePairs(tool, target.getHost(), target.getPort(), sha, requests,
                    ServerCeiling.BLOCKING_CALLERS, 1);
            double bound = ServerCeiling.blockingPairBound(blockingAcquires, blockingPairs);
            console.println(bound > 0 ? String.format(Locale.ROOT, "acquire %,.0f calls/s, pair script %,.0f pairs/s: "
                    + "at most %,.0f lock+unlock pairs/s as two round trips", blockingAcquires.requestsPerSecond(),
                    blockingPairs.requestsPerSecond(), bound)
                    : blockingAcquires.detail() + " " + blockingPairs.detail());
        }
        long removed = 0;
        ScanArgs matching = ScanArgs.Builder.matches(LockPairScriptText.KEY_PREFIX + "*").limit(1_000);
        KeyScanCursor<String> cursor = connection.sync().scan(matching);
        while (true) {
            if (!cursor.getKeys().isEmpty()) {
                removed += connection.sync().unlink(cursor.getKeys().toArray(String[]::new));
            }
            if (cursor.isFinished()) {
                break;
            }
            cursor = connection.sync().scan(ScanCursor.of(cursor.getCursor()), matching);
        }
        console.printf("[ceiling] removed the pair ceiling's %,d unlock latches%n", removed);
        return result;
    }

    private RunResult measure(Measurement m, String uri, int index) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(m.include())
                .threads(m.threads())
                .forks(profile.forks())
                .warmupIterations(profile.warmupIterations())
                .warmupTime(TimeValue.seconds(profile.warmupSeconds()))
                .measurementIterations(profile.iterations())
                .measurementTime(TimeValue.seconds(profile.iterationSeconds()))
                .addProfiler(GCProfiler.class)
                .jvmArgs(FORK_FLAGS.toArray(new String[0]))
                .jvmArgsAppend(forkProperties(uri))
                .shouldFailOnError(true)
                .output(log(index, m).toString());
        if (m.waitProfile()) {
            options.addProfiler(AcquireWaitProfiler.class);
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        if (results.isEmpty()) {
            throw new IllegalStateException("no result");
        }
        return results.iterator().next();
    }

    /** Stops a master and its replica started for the replica rows; null when none. */
    private RedisServer[] closePair(RedisServer[] pair) {
        if (pair != null) {
            pair[1].close();
            pair[0].close();
            replicaUris = null;
        }
        return null;
    }

    /** The -D options that tell a fork where the servers of this run are. */
    private String[] forkProperties(String uri) {
        List<String> properties = new ArrayList<>(List.of("-D" + BenchEnvironment.REDIS_PROPERTY + "=" + uri,
                "-D" + ClusterEnvironment.CLUSTER_PROPERTY + "=" + (clusterUri == null ? "" : clusterUri),
                "-D" + ReplicaEnvironment.REPLICA_PROPERTY + "=" + (replicaUris == null ? "" : replicaUris)));
        properties.addAll(peerArguments);
        return properties.toArray(new String[0]);
    }

    private Path log(int index, Measurement m) {
        return out.resolve("logs").resolve(String.format(Locale.ROOT, "%02d-%s.log", index,
                m.key().replace('@', '-')));
    }

    private List<String> heading(String redisVersion, ServerCeiling.Result ceiling, ServerCeiling.Result pairCeiling,
            Instant started) {
        List<String> lines = new ArrayList<>();
        lines.add("# hasp benchmark results (" + profile.name() + " profile)");
        lines.add("");
        lines.add("- When: " + started.truncatedTo(ChronoUnit.SECONDS) + " (UTC)");
        lines.add("- Machine: " + Machine.describe());
        lines.add("- Load average (1 min) at start / end: " + loadAtStart + " / " + Machine.loadAverage()
                + " (other processes on the same cores lower every figure; compare ratios of one run)");
        lines.add("- JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + "; every fork runs with `" + String.join(" ", FORK_FLAGS) + "`");
        lines.add("- Redis " + redisVersion + " (one server for every library and row, except the cluster row: a local"
                + " cluster of 3 masters and 3 replicas, Redisson in cluster mode; and the replica rows: a master and one"
                + " replica, Redisson in master/replica mode); Redisson "
                + version("org.redisson", "redisson") + ", Lettuce " + version("io.lettuce", "lettuce-core")
                + ", each with its default settings");
        lines.add(String.format(Locale.ROOT, "- JMH: %d fork(s), %d x %d s warm-up, %d x %d s measurement per row; "
                + "%s", profile.forks(), profile.warmupIterations(), profile.warmupSeconds(), profile.iterations(),
                profile.iterationSeconds(), profile.forks() * profile.iterations() == 1 ? "each figure is its one iteration"
                        : "each figure is the median of its " + profile.forks() * profile.iterations()
                                + " measured iterations"));
        lines.add(String.format(Locale.ROOT, "- Fleets: %d s each%s", profile.fleetSeconds(), profile.fleetRuns() == 1
                ? ", one run per library"
                : String.format(Locale.ROOT, ", %d runs per library taking turns; the table shows the median run "
                        + "and lists every run's rate", profile.fleetRuns())));
        lines.add("- Server ceiling: " + (ceiling.measured()
                ? String.format(Locale.ROOT, "%,.0f EVALSHA/s (`%s`)", ceiling.requestsPerSecond(), ceiling.command())
                : ceiling.detail()));
        if (pairCeiling.measured()) {
            lines.add(String.format(Locale.ROOT, "- Server ceiling on lock+unlock pairs: %,.0f pairs/s, %.0f%% of the "
                    + "EVALSHA ceiling in scripts (`%s`; hasp's acquire and unlock scripts in one call, on a new lock "
                    + "each time)", pairCeiling.requestsPerSecond(),
                    100 * 2 * pairCeiling.requestsPerSecond() / ceiling.requestsPerSecond(), pairCeiling.command()));
        }
        double bound = ServerCeiling.blockingPairBound(blockingAcquires, blockingPairs);
        if (bound > 0) {
            lines.add(String.format(Locale.ROOT, "- Server bound for %d blocking callers (one command in flight each, "
                    + "`-c %d -P 1`): acquire script %,.0f calls/s, pair script %,.0f pairs/s; a lock+unlock pair as two "
                    + "round trips, at most %,.0f pairs/s even for redis-benchmark's own C client", ServerCeiling.BLOCKING_CALLERS,
                    ServerCeiling.BLOCKING_CALLERS, blockingAcquires.requestsPerSecond(),
                    blockingPairs.requestsPerSecond(), bound));
        }
        lines.add("- Command: `lock-bench/bench.sh" + (commandLine.isEmpty() ? "" : " " + String.join(" ", commandLine))
                + "`");
        return lines;
    }

    private static String infoField(String info, String field) {
        for (String line : info.split("\\R")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).strip();
            }
        }
        return "?";
    }

    private static String version(String group, String artifact) {
        String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = BenchRunner.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return "?";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "?");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
