package io.hasp.bench.script;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.bench.Window;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Plain GET of a 16-byte value, client against client: hasp's command API and Lettuce, sync from 8
 * threads and async with a window of 64 calls in flight from one thread. Score: calls/s.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'GetBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class GetBenchmark {

    /** Calls kept in flight per thread by the async rows. */
    public static final int WINDOW = 64;

    /** The value stored under the key. */
    public static final String VALUE = "hasp-bench-value";

    /** Per thread: its own key and async window. */
    @State(Scope.Thread)
    public static class Caller {
        String key;
        Window window;
        io.hasp.RedisCommands hasp;
        RedisCommands<String, String> lettuceSync;
        RedisAsyncCommands<String, String> lettuceAsync;

        /**
         * Writes this thread's key.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            key = env.key("get");
            window = new Window(WINDOW);
            if (library.hasp()) {
                hasp = env.hasp().commands();
                hasp.set(key, VALUE).join();
            } else {
                lettuceSync = env.lettuce().sync();
                lettuceAsync = env.lettuce().async();
                lettuceSync.set(key, VALUE);
            }
        }

        /** Waits for the calls still in flight. */
        @TearDown(Level.Iteration)
        public void drain() {
            window.drain();
        }
    }

    /**
     * hasp, blocking call per thread.
     *
     * @param caller this thread's state
     * @return the value
     */
    @Benchmark
    @Threads(8)
    public String haspSync(Caller caller) {
        return caller.hasp.get(caller.key).join();
    }

    /**
     * hasp, {@value #WINDOW} calls in flight.
     *
     * @param caller this thread's state
     */
    @Benchmark
    @Threads(1)
    public void haspAsync(Caller caller) {
        int slot = caller.window.awaitSlot();
        caller.window.started(slot, caller.hasp.get(caller.key));
    }

    /**
     * Lettuce, blocking call per thread.
     *
     * @param caller this thread's state
     * @return the value
     */
    @Benchmark
    @Threads(8)
    public String lettuceSync(Caller caller) {
        return caller.lettuceSync.get(caller.key);
    }

    /**
     * Lettuce, {@value #WINDOW} calls in flight.
     *
     * @param caller this thread's state
     */
    @Benchmark
    @Threads(1)
    public void lettuceAsync(Caller caller) {
        int slot = caller.window.awaitSlot();
        caller.window.started(slot, caller.lettuceAsync.get(caller.key));
    }
}
