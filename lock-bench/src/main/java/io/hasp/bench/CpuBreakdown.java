package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.testing.CommandStats;
import io.hasp.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.redisson.api.RedissonClient;

/**
 * Where the time of an uncontended lock+unlock pair goes: runs N threads doing {@code lock(); unlock()}
 * on their own names (as {@code UncontendedLockBenchmark}), then over a measured window reports pairs/s,
 * the CPU time per pair of this JVM and of the redis-server process (from {@code /proc}, so Linux and a
 * local server only), and the server commands per pair (from {@code INFO commandstats}). On a machine
 * whose cores are shared by client and server, CPU per pair is what bounds throughput.
 *
 * <p>Run: {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.CpuBreakdown hasp 8 [seconds] [redis://host:port]}
 * (library {@code hasp} or {@code redisson}; without a URI it starts a private redis-server). With
 * {@code -Dhasp.directConnections=0} hasp's blocking calls go through its event loop, many callers' commands
 * sharing one connection, instead of each on a direct connection of its own. With {@code -Dhasp.alternate=true} each
 * thread takes turns between two names of its own; with {@code -Dhasp.unlockAsync=true} it gives each lock back
 * with {@code unlockAsync()} without waiting for the answer (hasp only), taking turns between two names unless
 * {@code -Dhasp.alternate=false}: the next lock, of the other name, goes out while the unlock is on its way (the
 * same name's waits for the unlock's answer).
 */
public final class CpuBreakdown {

    private CpuBreakdown() {
    }

    /**
     * Command line: {@code <hasp|redisson> <threads> [seconds] [uri]}.
     *
     * @param args the arguments
     * @throws Exception when the run fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: CpuBreakdown <hasp|redisson> <threads> [seconds] [redis://host:port]");
            System.exit(2);
        }
        String library = args[0];
        int threads = Integer.parseInt(args[1]);
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        RedisServer server = args.length > 3 ? null : RedisServer.start();
        String uri = server != null ? server.uri() : args[3];
        try {
            System.out.println(run(uri, library, threads, seconds));
        } finally {
            if (server != null) {
                server.stop();
            }
        }
        System.exit(0);
    }

    static String run(String uri, String library, int threads, int seconds) throws Exception {
        // -Dhasp.directConnections=0 sends blocking calls through the event loop instead of direct connections
        Integer direct = Integer.getInteger("hasp.directConnections");
        HaspClient hasp = !library.equals("hasp") ? null : direct == null ? HaspClient.create(uri)
                : HaspClient.create(HaspConfig.builder().uri(uri).directConnections(direct).build());
        RedissonClient redisson = library.equals("redisson") ? Peers.redisson(uri) : null;
        if (hasp == null && redisson == null) {
            throw new IllegalArgumentException("library: " + library + " (expected: hasp or redisson)");
        }
        boolean unlockAsync = Boolean.getBoolean("hasp.unlockAsync");
        boolean alternate = Boolean.parseBoolean(System.getProperty("hasp.alternate", Boolean.toString(unlockAsync)));
        if (unlockAsync && hasp == null) {
            throw new IllegalArgumentException("-Dhasp.unlockAsync=true is for hasp only");
        }
        AtomicLong failedUnlocks = new AtomicLong();
        RedisClient lettuce = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> stats = lettuce.connect()) {
            long serverPid = Long.parseLong(field(stats.sync().info("server"), "process_id"));
            AtomicLong pairs = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String name = "bench:cpu:" + library + ":" + i + ":" + System.nanoTime();
                Lock[] locks = new Lock[alternate ? 2 : 1];
                for (int l = 0; l < locks.length; l++) {
                    locks[l] = hasp != null ? hasp.getLock(name + ":" + l) : redisson.getLock(name + ":" + l);
                }
                Thread worker = new Thread(() -> {
                    int turn = 0;
                    while (!stop.get()) {
                        Lock lock = locks[turn++ % locks.length];
                        lock.lock();
                        if (unlockAsync) {
                            ((HaspLock) lock).unlockAsync().whenComplete((v, e) -> {
                                if (e != null) {
                                    failedUnlocks.incrementAndGet();
                                }
                            });
                        } else {
                            lock.unlock();
                        }
                        pairs.incrementAndGet();
                    }
                }, "cpu-breakdown-" + i);
                worker.start();
                workers.add(worker);
            }
            Thread.sleep(seconds * 1000L); // warm-up: JIT, connections, pools
            long self = ProcessHandle.current().pid();
            Map<String, Long> calls0 = CommandStats.parse(stats.sync().info("commandstats")).allCalls();
            long p0 = pairs.get();
            long c0 = cpuTicks(self);
            long s0 = cpuTicks(serverPid);
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            long p1 = pairs.get();
            long c1 = cpuTicks(self);
            long s1 = cpuTicks(serverPid);
            long t1 = System.nanoTime();
            Map<String, Long> calls1 = CommandStats.parse(stats.sync().info("commandstats")).allCalls();
            stop.set(true);
            for (Thread worker : workers) {
                worker.join();
            }
            double secs = (t1 - t0) / 1e9;
            double n = Math.max(1, p1 - p0);
            double usPerTick = 1e6 / 100; // USER_HZ
            StringBuilder perPair = new StringBuilder();
            for (Map.Entry<String, Long> e : calls1.entrySet()) {
                long delta = e.getValue() - calls0.getOrDefault(e.getKey(), 0L);
                if (delta / n >= 0.05) {
                    perPair.append(String.format(Locale.ROOT, " %s %.2f", e.getKey(), delta / n));
                }
            }
            if (failedUnlocks.get() > 0) {
                throw new IllegalStateException(failedUnlocks.get() + " unlocks failed");
            }
            return String.format(Locale.ROOT, "%s%s, %d threads: %.0f pairs/s; this JVM %.0f us CPU per pair (%.2f cores), "
                    + "redis-server %.0f us CPU per pair (%.2f cores); server commands per pair (incl. inside scripts):%s",
                    library, (unlockAsync ? " (unlockAsync() not waited for)" : "") + (alternate ? " (two locks a thread)" : ""),
                    threads, n / secs, (c1 - c0) * usPerTick / n, (c1 - c0) / 100.0 / secs,
                    (s1 - s0) * usPerTick / n, (s1 - s0) / 100.0 / secs, perPair);
        } finally {
            lettuce.shutdown();
            if (hasp != null) {
                hasp.close();
            }
            if (redisson != null) {
                redisson.shutdown();
            }
        }
    }

    /** utime + stime of a process in clock ticks, from /proc/PID/stat (fields 14 and 15). */
    static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static String field(String info, String name) {
        for (String line : info.split("\\R")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        throw new IllegalStateException(name + ": not in INFO");
    }
}
