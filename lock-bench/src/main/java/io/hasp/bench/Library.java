package io.hasp.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Which library the running benchmark method measures, read from its name ({@code hasp*}, {@code redisson*},
 * {@code lettuce*}), so that setups create only that library's objects: a fork measuring hasp has no idle
 * Redisson client beside it, and the reverse.
 */
@State(Scope.Benchmark)
public class Library {

    private String method = "";

    /**
     * Reads the running method's name.
     *
     * @param params JMH's parameters of this run
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /**
     * Returns whether hasp is measured.
     *
     * @return true for {@code hasp*} methods
     */
    public boolean hasp() {
        return method.startsWith("hasp");
    }

    /**
     * Returns whether Redisson is measured.
     *
     * @return true for {@code redisson*} methods
     */
    public boolean redisson() {
        return method.startsWith("redisson");
    }

    /**
     * Returns whether Lettuce is measured.
     *
     * @return true for {@code lettuce*} methods
     */
    public boolean lettuce() {
        return method.startsWith("lettuce");
    }
}
