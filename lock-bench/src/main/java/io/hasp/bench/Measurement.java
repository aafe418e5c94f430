package io.hasp.bench;

import java.lang.reflect.Method;
import java.util.regex.Pattern;

/**
 * One JMH execution the runner makes: a benchmark method at a thread count.
 *
 * @param benchmark the benchmark class
 * @param method the {@code @Benchmark} method's name
 * @param threads JMH threads ({@code -t})
 * @param waitProfile whether {@link AcquireWaitProfiler} is added
 */
public record Measurement(Class<?> benchmark, String method, int threads, boolean waitProfile) {

    /**
     * Returns the key results are filed under.
     *
     * @return {@code Class.method@threads}
     */
    public String key() {
        return benchmark.getSimpleName() + "." + method + "@" + threads;
    }

    /**
     * Returns the JMH include pattern that selects exactly this method.
     *
     * @return an anchored regular expression
     */
    public String include() {
        return "^" + Pattern.quote(benchmark.getName() + "." + method) + "$";
    }

    /**
     * Returns whether the benchmark class has the method (hasp rows appear as the pieces they measure land).
     *
     * @return true when the method exists
     */
    public boolean exists() {
        for (Method m : benchmark.getMethods()) {
            if (m.getName().equals(method)) {
                return true;
            }
        }
        return false;
    }
}
