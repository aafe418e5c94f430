package io.hasp.bench;

import io.hasp.internal.lock.Turns;
import io.hasp.testing.CommandStats;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the server spends on one hand-off of a hot lock, with clients that add nothing of their own: the release
 * script of lock-core ({@code unlock.lua}, unchanged) sent over blocking sockets, each caller holding the lock
 * {@value #HOLD_MICROS} us between releases, as in {@link HotLock}. Two shapes, the rounds taking turns:
 * <ul>
 *   <li>a hand-over inside one process: one connection releases to a waiter of its own process named in the
 *       call, and the next release is that waiter's;</li>
 *   <li>a hand-off between processes, for each count given: that many callers, each with a connection and a
 *       subscription to its process's turn channel, stand in the lock's line; each release grants the lock to
 *       the next process's heir and tells it on its channel, and that process releases in its turn.</li>
 * </ul>
 * Per shape, the medians over the rounds of the server's CPU per hand-off ({@code INFO cpu}), of that the kernel's
 * ({@code used_cpu_sys}) and the script's ({@code EVALSHA} in {@code INFO commandstats}), and the CPU against the
 * hand-over inside one process. {@link HotLock} measures the same traffic made by hasp's clients, whose threads,
 * event loops and sockets share the machine with the server; this is the floor under it.
 *
 * <p>Run: {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.HandOffFloor [rounds] [hand-offs]
 * [processes ...]} (defaults 5, 8000 and 32 64; it starts its own redis-server, {@code REDIS_SERVER} picks the
 * binary as for the tests). Not a JMH benchmark.
 */
public final class HandOffFloor {

    /** How long each caller holds the lock before it releases. */
    static final long HOLD_MICROS = 100;
    private static final String NAME = "hot:floor";
    private static final String LEASE = "30000";
    private static final String LATCH_MILLIS = "2000";
    private static final String PLACE_MILLIS = Long.toString(Turns.PLACE_MILLIS);
    private static final String TURN_MILLIS = Long.toString(Turns.TURN_MILLIS);

    private HandOffFloor() {
    }

    /** One shape's figures in one round, per hand-off. */
    private record Cost(double cpuMicros, double kernelMicros, double scriptMicros) {
    }

    /**
     * Command line: {@code [rounds] [hand-offs] [processes ...]}.
     *
     * @param args the arguments
     * @throws InterruptedException when interrupted while the callers run
     */
    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int handOffs = args.length > 1 ? Integer.parseInt(args[1]) : 8000;
        int[] processes = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {32, 64};
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds: " + rounds + " (expected: >= 1)");
        }
        for (int count : processes) {
            if (count < 2 || count > handOffs) {
                throw new IllegalArgumentException("processes: " + count + " (expected: 2 to the hand-offs, "
                        + handOffs + ")");
            }
        }
        Map<String, List<Cost>> costs = new LinkedHashMap<>();
        try (RedisServer server = RedisServer.start(); RedisProbe probe = RedisProbe.connect(server.port())) {
            String sha = (String) probe.call("SCRIPT", "LOAD", Turns.compose(Turns.class, "unlock.lua").text());
            System.out.println("redis " + server.version() + ", " + handOffs + " hand-offs a shape, hold "
                    + HOLD_MICROS + " us");
            for (int round = 1; round <= rounds; round++) {
                record(costs, "inside one process", withinProcess(server, probe, sha, handOffs));
                for (int count : processes) {
                    record(costs, "between " + count + " processes", betweenProcesses(server, probe, sha, handOffs,
                            count));
                }
            }
        }
        System.out.println("medians over " + rounds + " rounds, per hand-off:");
        System.out.println("| shape | server CPU (us) | against inside one process | in the kernel (us) | in the"
                + " script (us) |");
        System.out.println("|---|---:|---:|---:|---:|");
        double first = 0;
        for (Map.Entry<String, List<Cost>> shape : costs.entrySet()) {
            double cpu = Medians.of(shape.getValue(), Cost::cpuMicros);
            first = first == 0 ? cpu : first;
            System.out.printf(Locale.ROOT, "| %s | %.1f | %.2fx | %.1f | %.1f |%n", shape.getKey(), cpu, cpu / first,
                    Medians.of(shape.getValue(), Cost::kernelMicros), Medians.of(shape.getValue(), Cost::scriptMicros));
        }
    }

    private static void record(Map<String, List<Cost>> costs, String shape, Cost cost) {
        System.out.printf(Locale.ROOT, "%s: %.1f us server CPU a hand-off, %.1f in the kernel, %.1f in the script%n",
                shape, cost.cpuMicros, cost.kernelMicros, cost.scriptMicros);
        costs.computeIfAbsent(shape, s -> new ArrayList<>()).add(cost);
    }

    /** One connection hands the lock back and forth between two owners of one process. */
    private static Cost withinProcess(RedisServer server, RedisProbe probe, String sha, int handOffs) {
        probe.call("FLUSHALL");
        probe.call("HSET", NAME, process(0) + ":1", "1");
        try (RedisProbe caller = RedisProbe.connect(server.port())) {
            long latch = 0;
            int holder = 0;
            Snapshot before = null;
            for (int i = -1000; i < handOffs; i++) {   // the first thousand warm up
                if (i == 0) {
                    before = Snapshot.take(probe);
                }
                Object outcome = caller.call(release(sha, process(0), process(0) + ":" + (1 + holder), latch++,
                        process(0) + ":" + (2 - holder), "0", ""));
                expect(outcome, 2L);
                holder = 1 - holder;
                hold();
            }
            return Snapshot.take(probe).since(before, handOffs);
        }
    }

    /** {@code count} processes stand in line; each release grants the lock to the next one's heir. */
    private static Cost betweenProcesses(RedisServer server, RedisProbe probe, String sha, int handOffs, int count)
            throws InterruptedException {
        probe.call("FLUSHALL");
        List<RedisProbe> connections = new ArrayList<>();
        List<RedisProbe> subscriptions = new ArrayList<>();
        try {
            for (int p = 0; p < count; p++) {
                connections.add(RedisProbe.connect(server.port()));
                subscriptions.add(RedisProbe.connect(server.port()));
                subscriptions.get(p).call("SUBSCRIBE", turnChannelPrefix() + process(p));
            }
            probe.call("HSET", NAME, owner(0), "1");
            for (int p = 1; p < count; p++) {
                probe.call("RPUSH", "hasp_lock_line:{" + NAME + "}", process(p));
                probe.call("SET", placePrefix() + ":" + process(p), heir(p, p), "PX", PLACE_MILLIS);
            }
            int each = handOffs / count;
            Snapshot before = Snapshot.take(probe);
            runInTurns(sha, connections, subscriptions, each);
            return Snapshot.take(probe).since(before, (long) each * count);
        } finally {
            connections.forEach(RedisProbe::close);
            subscriptions.forEach(RedisProbe::close);
        }
    }

    /**
     * One caller a process, each releasing {@code each} times in its turn: the first process holds the lock, the
     * others wait for the grant on their subscriptions. A caller that fails stops the others within the probes'
     * read timeout.
     */
    private static void runInTurns(String sha, List<RedisProbe> connections, List<RedisProbe> subscriptions,
            int each) throws InterruptedException {
        AtomicLong latches = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> callers = new ArrayList<>();
        for (int p = 0; p < connections.size(); p++) {
            int me = p;
            Thread caller = new Thread(() -> {
                try {
                    for (int i = 0; i < each; i++) {
                        if (me != 0 || i != 0) {
                            subscriptions.get(me).read();   // its turn: the lock was granted to its heir
                        }
                        hold();
                        long stamp = latches.incrementAndGet();
                        expect(connections.get(me).call(release(sha, process(me), owner(me), stamp, "", "1",
                                heir(me, stamp))), 5L);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "hand-off-" + p);
            callers.add(caller);
            caller.start();
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        for (Thread caller : callers) {
            caller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (caller.isAlive()) {
                throw new IllegalStateException(caller.getName() + " did not finish within 5 minutes");
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a caller failed", failure.get());
        }
    }

    /**
     * The release as {@code UnlockScript.run} sends it, keys and arguments in its order (a copy for this bench:
     * {@link #expect} fails the run when the script's layout has moved on).
     */
    private static String[] release(String sha, String process, String owner, long latch, String successor,
            String staysInLine, String heir) {
        return new String[] {"EVALSHA", sha, "7", NAME, "redisson_lock__channel:{" + NAME + "}",
            "redisson_unlock_latch:{" + NAME + "}:" + latch, "hasp_lock_line:{" + NAME + "}", placePrefix(),
            "hasp_lock_turn:{" + NAME + "}", "hasp_lock_grant:{" + NAME + "}",
            "0", LEASE, owner, LATCH_MILLIS, "publish", successor, LEASE, process, staysInLine,
            PLACE_MILLIS, TURN_MILLIS, turnChannelPrefix(), "0", heir};
    }

    private static void expect(Object outcome, long expected) {
        if (!Long.valueOf(expected).equals(outcome)) {
            throw new IllegalStateException("the release answered " + outcome + ", expected " + expected
                    + " (has unlock.lua's layout changed?)");
        }
    }

    private static void hold() {
        long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(HOLD_MICROS);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /** A process id shaped as hasp's client ids are (version-8 UUIDs). */
    private static String process(int p) {
        return String.format(Locale.ROOT, "0192a3b4-c5d6-8e7f-9a0b-%012d", p);
    }

    private static String owner(int p) {
        return process(p) + ":1";
    }

    private static String heir(int p, long stamp) {
        return stamp + ":" + LEASE + ":" + owner(p);
    }

    private static String placePrefix() {
        return "hasp_lock_line_place:{" + NAME + "}";
    }

    private static String turnChannelPrefix() {
        return "hasp_lock_turn__channel:{" + NAME + "}:";
    }

    /** The server's CPU and script time so far. */
    private record Snapshot(ServerCpu cpu, CommandStats stats) {

        static Snapshot take(RedisProbe probe) {
            return new Snapshot(ServerCpu.read(probe), CommandStats.parse((String) probe.call("INFO", "commandstats")));
        }

        Cost since(Snapshot before, long handOffs) {
            return new Cost((cpu.seconds() - before.cpu.seconds()) * 1e6 / handOffs,
                    (cpu.kernelSeconds() - before.cpu.kernelSeconds()) * 1e6 / handOffs,
                    (double) stats.micros(before.stats, "evalsha") / handOffs);
        }
    }
}
