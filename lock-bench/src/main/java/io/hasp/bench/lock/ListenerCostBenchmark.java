package io.hasp.bench.lock;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.HaspListener;
import io.hasp.bench.BenchEnvironment;
import io.hasp.lock.HaspLock;
import io.hasp.micrometer.HaspMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * What hasp's events cost when nobody traces: uncontended {@code lock()} + {@code unlock()} pairs (watchdog lease),
 * each thread its own name, on one client per setting, measured in one run: {@code none}, no listener (the client
 * makes no event call at all); {@code empty}, a listener that overrides nothing (every event, including each acquire
 * script's, is a call that does nothing); {@code metrics}, {@code HaspMetrics} with its meters and an
 * {@code ObservationRegistry} that has no handler (tracing present but off: each acquisition, script and unlock
 * creates a no-op observation). Run settings: {@link LockBenchmark}.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar ListenerCostBenchmark -t 8 -f 1 -wi 3 -i 5 -w 2s -r 3s}
 */
@Threads(8)
public class ListenerCostBenchmark extends LockBenchmark {

    /** The client of one setting, on the environment's server. */
    @State(Scope.Benchmark)
    public static class Client {
        /** Which listener the client has. */
        @Param({"none", "empty", "metrics"})
        public String listener;

        HaspClient client;

        /**
         * Creates the client of this setting.
         *
         * @param env the server
         */
        @Setup(Level.Trial)
        public void start(BenchEnvironment env) {
            HaspConfig.Builder config = HaspConfig.builder().uri(env.uri());
            switch (listener) {
                case "none" -> { }
                case "empty" -> config.listener(new HaspListener() { });
                case "metrics" -> {
                    HaspMetrics metrics = HaspMetrics.builder().observations(ObservationRegistry.create()).build();
                    metrics.bindTo(new SimpleMeterRegistry());
                    config.listener(metrics);
                }
                default -> throw new IllegalArgumentException("listener: " + listener);
            }
            client = HaspClient.create(config.build());
        }

        /** Closes the client. */
        @TearDown(Level.Trial)
        public void stop() {
            client.close();
        }
    }

    /** One thread's lock on its setting's client. */
    @State(Scope.Thread)
    public static class Own {
        HaspLock lock;

        /**
         * Creates this thread's lock (no Redis command).
         *
         * @param env the server, for a unique name
         * @param client the setting's client
         */
        @Setup(Level.Trial)
        @SuppressWarnings("deprecation")  // Thread.threadId() needs Java 19
        public void setUp(BenchEnvironment env, Client client) {
            lock = client.client.getLock(env.key("listener-cost:" + client.listener + ":" + Thread.currentThread().getId()));
        }
    }

    /**
     * A lock and an unlock.
     *
     * @param own this thread's lock
     */
    @Benchmark
    public void lockUnlock(Own own) {
        own.lock.lock();
        own.lock.unlock();
    }
}
