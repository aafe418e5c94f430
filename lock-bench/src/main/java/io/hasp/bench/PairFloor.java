package io.hasp.bench;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the server's time goes in one safe lock+unlock pair, taken apart on the server alone: redis-benchmark
 * ({@value ServerCeiling#CLIENTS} connections, {@value ServerCeiling#PIPELINE} pipelined on each, a new lock
 * per call) sends variants of {@link LockPairScriptText}'s script, the rounds taking turns, and this prints
 * each variant's median rate and the server's CPU time per call ({@code INFO cpu}, user and system):
 * <ul>
 *   <li>an empty script with the pair's keys and arguments: the fixed cost of one script call;</li>
 *   <li>the pair: lock-core's acquire and unlock scripts, unchanged, in one call;</li>
 *   <li>the pair with its unlock latch deleted in the same call (as a client's latch sweeper deletes it soon
 *       after), without the latch's write, and without the unlock message: what each costs (the last two are
 *       unsafe, measured only to weigh their part);</li>
 *   <li>the empty script and the pair again, sent one call at a time on each of
 *       {@value ServerCeiling#BLOCKING_CALLERS} connections, as blocking callers send them: what reading and
 *       answering every call on its own adds;</li>
 *   <li>on Redis 7, the pair as a function ({@code FCALL}) instead of a script.</li>
 * </ul>
 * A client sends a pair as two script calls, so the server's floor for a pair is the pair's cost plus one
 * more script call.
 *
 * <p>Run: {@code java -cp lock-bench/target/benchmarks.jar io.hasp.bench.PairFloor [rounds] [requests]}
 * (defaults 3 and 300000; it starts its own redis-server, {@code REDIS_SERVER} picks the binary as for the
 * tests). Not a JMH benchmark.
 */
public final class PairFloor {

    private static final String LATCH_WRITE = "redis.call('set', latch, outcome, 'px', ARGV[4])\n";
    private static final String PUBLISH = "local listeners = redis.call(publish, channel, ARGV[1]) - own_listener\n";
    private static final String FUNCTION = "hasp_floor_pair";

    private PairFloor() {
    }

    /**
     * One thing sent: a script (by its SHA1) or a function (by its name), by {@code clients} connections with
     * {@code pipeline} calls in flight on each.
     */
    private record Variant(String name, String command, String target, int clients, int pipeline) {

        Variant(String name, String command, String target) {
            this(name, command, target, ServerCeiling.CLIENTS, ServerCeiling.PIPELINE);
        }

        /** This variant sent one call at a time on each of {@value ServerCeiling#BLOCKING_CALLERS} connections. */
        Variant oneAtATime() {
            return new Variant(name + ", one call at a time", command, target, ServerCeiling.BLOCKING_CALLERS, 1);
        }
    }

    /**
     * Command line: {@code [rounds] [requests]}.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        long requests = args.length > 1 ? Long.parseLong(args[1]) : 300_000;
        try (RedisServer server = RedisServer.start(); RedisProbe probe = RedisProbe.connect(server.port())) {
            Path tool = ServerCeiling.findRedisBenchmark(server.binary())
                    .orElseThrow(() -> new IllegalStateException("redis-benchmark is not on the PATH"));
            List<Variant> variants = variants(probe, server.majorVersion());
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            Map<String, List<Double>> cpu = new LinkedHashMap<>();
            for (int round = 1; round <= rounds; round++) {
                for (Variant variant : variants) {
                    probe.call("FLUSHALL");   // every variant starts from an empty server
                    double cpuBefore = ServerCpu.read(probe).seconds();
                    ServerCeiling.Result result = measure(tool, server, variant, requests);
                    double cpuMicros = (ServerCpu.read(probe).seconds() - cpuBefore) * 1e6 / requests;
                    if (!result.measured()) {
                        throw new IllegalStateException(variant.name() + ": " + result.detail());
                    }
                    rates.computeIfAbsent(variant.name(), k -> new ArrayList<>()).add(result.requestsPerSecond());
                    cpu.computeIfAbsent(variant.name(), k -> new ArrayList<>()).add(cpuMicros);
                    System.out.printf(Locale.ROOT, "round %d, %s: %,.0f calls/s, %.2f us of server CPU per call%n",
                            round, variant.name(), result.requestsPerSecond(), cpuMicros);
                }
            }
            System.out.println(report(rates, cpu, server.version(), rounds, requests));
        }
    }

    private static List<Variant> variants(RedisProbe probe, int majorVersion) {
        String pair = LockPairScriptText.text();
        List<Variant> variants = new ArrayList<>(List.of(
                new Variant("empty script", "EVALSHA", load(probe, "return 1\n")),
                new Variant("pair", "EVALSHA", load(probe, pair)),
                new Variant("pair, its latch deleted at once", "EVALSHA", load(probe, replaced(pair, LATCH_WRITE,
                        LATCH_WRITE + "redis.call('del', latch)\n"))),
                new Variant("pair without the latch write", "EVALSHA", load(probe, without(pair, LATCH_WRITE))),
                new Variant("pair without the unlock message", "EVALSHA", load(probe, replaced(pair, PUBLISH,
                        "local listeners = 0\n")))));
        // As a blocking caller sends them: each connection waits for a call's answer before sending the next.
        variants.add(variants.get(0).oneAtATime());
        variants.add(variants.get(1).oneAtATime());
        if (majorVersion >= 7) {
            probe.call("FUNCTION", "LOAD", "REPLACE", "#!lua name=hasp_floor\nlocal function pair(KEYS, ARGV)\n" + pair
                    + "end\nredis.register_function('" + FUNCTION + "', pair)\n");
            variants.add(new Variant("pair as a function (FCALL)", "FCALL", FUNCTION));
        }
        return variants;
    }

    private static String load(RedisProbe probe, String lua) {
        return (String) probe.call("SCRIPT", "LOAD", lua);
    }

    /** {@code text} without the one line {@code line}; fails when the scripts no longer have it. */
    private static String without(String text, String line) {
        return replaced(text, line, "");
    }

    /** {@code text} with its one line {@code line} replaced; fails when the scripts no longer have it. */
    private static String replaced(String text, String line, String replacement) {
        int at = text.indexOf(line);
        if (at < 0 || text.indexOf(line, at + 1) >= 0) {
            throw new IllegalStateException("unlock.lua no longer has exactly one line " + line.strip());
        }
        return text.substring(0, at) + replacement + text.substring(at + line.length());
    }

    private static ServerCeiling.Result measure(Path tool, RedisServer server, Variant variant, long requests) {
        List<String> arguments = new ArrayList<>(List.of("-c", Integer.toString(variant.clients()), "-P",
                Integer.toString(variant.pipeline()), "-n", Long.toString(requests), "-r",
                Long.toString(ServerCeiling.KEY_SPACE), "--csv", variant.command(), variant.target(), "3"));
        arguments.addAll(LockPairScriptText.KEYS);
        arguments.addAll(List.of(AcquireScriptText.LEASE_MILLIS, AcquireScriptText.OWNER, LockPairScriptText.LATCH_MILLIS));
        return ServerCeiling.run(tool, server.host(), server.port(), arguments, variant.name());
    }

    private static String report(Map<String, List<Double>> rates, Map<String, List<Double>> cpu, String version,
            int rounds, long requests) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%nredis %s, redis-benchmark -n %d -r %d, %d rounds taking turns (median,"
                + " then every round); the server's CPU (INFO cpu, user + system) over the calls sent%n%n", version,
                requests, ServerCeiling.KEY_SPACE, rounds));
        out.append("| sent | connections x in flight | calls/s | us of server CPU per call | calls/s of each round |\n"
                + "|---|---|---:|---:|---|\n");
        Map<String, Double> micros = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> entry : rates.entrySet()) {
            double perCall = Medians.of(cpu.get(entry.getKey()), Double::doubleValue);
            micros.put(entry.getKey(), perCall);
            StringBuilder each = new StringBuilder();
            for (double value : entry.getValue()) {
                each.append(each.length() == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%,.0f", value));
            }
            boolean alone = entry.getKey().endsWith("one call at a time");
            out.append(String.format(Locale.ROOT, "| %s | %d x %d | %,.0f | %.2f | %s |%n", entry.getKey(),
                    alone ? ServerCeiling.BLOCKING_CALLERS : ServerCeiling.CLIENTS, alone ? 1 : ServerCeiling.PIPELINE,
                    Medians.of(entry.getValue(), Double::doubleValue), perCall, each));
        }
        double empty = micros.get("empty script");
        double pair = micros.get("pair");
        out.append(String.format(Locale.ROOT, "%nA pair as a client sends it, two script calls: %.2f us (the pair's %.2f"
                + " and one more script call's %.2f).%n", pair + empty, pair, empty));
        double emptyAlone = micros.get("empty script, one call at a time");
        double pairAlone = micros.get("pair, one call at a time");
        out.append(String.format(Locale.ROOT, "The same two calls sent one at a time on their connection, as blocking"
                + " callers send them: %.2f us; reading and answering each call on its own costs %.2f us more than in a"
                + " pipeline (the empty script's %.2f against %.2f), %.0f%% of that pair.%n", pairAlone + emptyAlone,
                emptyAlone - empty, emptyAlone, empty, 100 * 2 * (emptyAlone - empty) / (pairAlone + emptyAlone)));
        double noLatch = micros.get("pair without the latch write");
        out.append(String.format(Locale.ROOT, "The latch: %.2f us of the pair as measured, its key living on for the latch's"
                + " life; %.2f us written and deleted at once (a client's latch sweeper deletes it within a timer tick)."
                + " The unlock message: %.2f us. The fixed cost of the two script calls: %.2f us (%.0f%% of the pair as"
                + " sent).%n", pair - noLatch, micros.get("pair, its latch deleted at once") - noLatch,
                pair - micros.get("pair without the unlock message"), 2 * empty, 100 * 2 * empty / (pair + empty)));
        Double function = micros.get("pair as a function (FCALL)");
        if (function != null) {
            out.append(String.format(Locale.ROOT, "As a function: %.2f us per pair against %.2f as a script (%.2fx).%n",
                    function, pair, pair / function));
        }
        return out.toString();
    }
}
