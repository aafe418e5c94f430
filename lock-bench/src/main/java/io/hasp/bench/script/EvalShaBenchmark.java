package io.hasp.bench.script;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.bench.AcquireScriptText;
import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.bench.Window;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
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
 * Raw EVALSHA of the lock's acquire script ({@link AcquireScriptText}), client against client: hasp's
 * command API and Lettuce, sync from 8 threads and async with a window of 64 calls in flight from one
 * thread. Each thread uses its own key; every call is a holder's re-acquire (nil reply). Score: calls/s.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar 'EvalShaBenchmark' -f 1 -wi 2 -i 3 -w 1s -r 2s -prof gc}
 * (or all rows at once with {@code lock-bench/bench.sh}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class EvalShaBenchmark {

    /** Calls kept in flight per thread by the async rows. */
    public static final int WINDOW = 64;

    /** Per thread: its own key, the script's SHA and the async window. */
    @State(Scope.Thread)
    public static class Caller {
        String sha;
        String[] keys;
        List<String> keyList;
        final String[] args = {AcquireScriptText.LEASE_MILLIS, AcquireScriptText.OWNER, AcquireScriptText.COUNT};
        Script script;
        io.hasp.RedisCommands hasp;
        Window window;
        RedisCommands<String, String> lettuceSync;
        RedisAsyncCommands<String, String> lettuceAsync;

        /**
         * Loads the script and picks this thread's key.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            if (library.hasp()) {
                hasp = env.hasp().commands();
            } else {
                lettuceSync = env.lettuce().sync();
                lettuceAsync = env.lettuce().async();
                sha = lettuceSync.scriptLoad(AcquireScriptText.text());
            }
            keys = AcquireScriptText.keys(env.key("evalsha")).toArray(String[]::new);
            keyList = List.of(keys);
            script = Script.of("acquire", AcquireScriptText.text());
            window = new Window(WINDOW);
        }

        /** Waits for the calls still in flight. */
        @TearDown(Level.Iteration)
        public void drain() {
            window.drain();
        }
    }

    /**
     * hasp, blocking call per thread (waits on the async call).
     *
     * @param caller this thread's state
     * @return the reply (null: held by this owner)
     */
    @Benchmark
    @Threads(8)
    public Long haspSync(Caller caller) {
        return caller.hasp.evalsha(caller.script, Replies.NULL_OR_LONG, caller.keyList, (Object[]) caller.args).join();
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
        caller.window.started(slot, caller.hasp.evalsha(caller.script, Replies.NULL_OR_LONG, caller.keyList,
                (Object[]) caller.args));
    }

    /**
     * Lettuce, blocking call per thread.
     *
     * @param caller this thread's state
     * @return the reply (nil: held by this owner)
     */
    @Benchmark
    @Threads(8)
    public Object lettuceSync(Caller caller) {
        return caller.lettuceSync.evalsha(caller.sha, ScriptOutputType.INTEGER, caller.keys, caller.args);
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
        caller.window.started(slot, caller.lettuceAsync.evalsha(caller.sha, ScriptOutputType.INTEGER, caller.keys,
                caller.args));
    }
}
