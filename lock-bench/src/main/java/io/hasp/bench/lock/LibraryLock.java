package io.hasp.bench.lock;

import io.hasp.bench.BenchEnvironment;
import io.hasp.bench.Library;
import io.hasp.lock.HaspLock;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.redisson.api.RLock;

/**
 * One lock name and the lock object of the library the running method measures: {@link #hasp} for
 * {@code hasp*} methods, {@link #redisson} for {@code redisson*} methods, the other left null, so a fork
 * creates only its own library's objects. Subclasses are the JMH states: they choose the scope and call
 * {@link #open} in their trial setup. The two plain ones are {@link PerThread} (each thread its own name)
 * and {@link Shared} (one name for all threads); a benchmark that also writes to the name before it is
 * measured has its own subclass. Read-only after setup.
 */
public abstract class LibraryLock {

    /** hasp's lock; null when Redisson is measured. */
    HaspLock hasp;

    /** Redisson's lock; null when hasp is measured. */
    RLock redisson;

    /**
     * Picks a new lock name and creates the measured library's lock object for it (no Redis command).
     *
     * @param env the shared server and clients
     * @param library the library measured
     * @param role what the name is for, e.g. {@code "contended"}
     * @return the lock name
     */
    protected final String open(BenchEnvironment env, Library library, String role) {
        String name = env.key(role);
        if (library.hasp()) {
            hasp = env.hasp().getLock(name);
        } else {
            redisson = env.redisson().getLock(name);
        }
        return name;
    }

    /** Each thread's own lock name ({@code bench:<fork>:uncontended:<n>}), so no acquisition ever waits. */
    @State(Scope.Thread)
    public static class PerThread extends LibraryLock {

        /**
         * Picks this thread's lock name.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            open(env, library, "uncontended");
        }
    }

    /** One lock name ({@code bench:<fork>:contended:<n>}) all threads contend for. */
    @State(Scope.Benchmark)
    public static class Shared extends LibraryLock {

        /**
         * Picks the shared lock name.
         *
         * @param env the shared server and clients
         * @param library the library measured
         */
        @Setup(Level.Trial)
        public void setUp(BenchEnvironment env, Library library) {
            open(env, library, "contended");
        }
    }
}
