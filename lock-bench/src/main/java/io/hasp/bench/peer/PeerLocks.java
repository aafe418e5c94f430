package io.hasp.bench.peer;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The JMH states of the peer benchmarks: each thread's own lock object (own session) of the peer the
 * running method is named after ({@link Peer#ofMethod}), on its own name ({@link Own}), on the one name all
 * threads contend for ({@link Contending}), or on a name another session holds ({@link Trying}).
 */
public final class PeerLocks {

    private PeerLocks() {
    }

    static Peer peer(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        return Peer.ofMethod(benchmark.substring(benchmark.lastIndexOf('.') + 1));
    }

    /** This thread's lock on its own name: every acquisition succeeds at once. */
    @State(Scope.Thread)
    public static class Own {

        /** The lock. */
        public PeerLock lock;

        /**
         * Opens the lock.
         *
         * @param env the fork's peer servers
         * @param params the running benchmark
         * @throws Exception when the server cannot be reached
         */
        @Setup(Level.Trial)
        public void setUp(PeerEnvironment env, BenchmarkParams params) throws Exception {
            lock = env.open(peer(params), env.name("own"));
        }
    }

    /** The one name all threads contend for, chosen once per fork. */
    @State(Scope.Benchmark)
    public static class SharedName {

        String name;

        /**
         * Chooses the name.
         *
         * @param env the fork's peer servers
         */
        @Setup(Level.Trial)
        public void setUp(PeerEnvironment env) {
            name = env.name("contended");
        }
    }

    /** This thread's lock (own session) on the shared name. */
    @State(Scope.Thread)
    public static class Contending {

        /** The lock. */
        public PeerLock lock;

        /**
         * Opens the lock.
         *
         * @param env the fork's peer servers
         * @param shared the shared name
         * @param params the running benchmark
         * @throws Exception when the server cannot be reached
         */
        @Setup(Level.Trial)
        public void setUp(PeerEnvironment env, SharedName shared, BenchmarkParams params) throws Exception {
            lock = env.open(peer(params), shared.name);
        }
    }

    /** A name held, for the whole trial, by a session no benchmark thread uses. */
    @State(Scope.Benchmark)
    public static class Held {

        String name;

        /**
         * Takes the lock on a new name from a session of its own.
         *
         * @param env the fork's peer servers
         * @param params the running benchmark
         * @throws Exception when the server cannot be reached
         */
        @Setup(Level.Trial)
        public void setUp(PeerEnvironment env, BenchmarkParams params) throws Exception {
            name = env.name("held");
            PeerLock holder = env.open(peer(params), name);
            if (!holder.tryLock()) {
                throw new IllegalStateException("could not take the new lock " + name);
            }
        }
    }

    /** This thread's lock (own session) on the held name: every attempt fails. */
    @State(Scope.Thread)
    public static class Trying {

        /** The lock. */
        public PeerLock lock;

        /**
         * Opens the lock.
         *
         * @param env the fork's peer servers
         * @param held the held name
         * @param params the running benchmark
         * @throws Exception when the server cannot be reached
         */
        @Setup(Level.Trial)
        public void setUp(PeerEnvironment env, Held held, BenchmarkParams params) throws Exception {
            lock = env.open(peer(params), held.name);
        }
    }
}
