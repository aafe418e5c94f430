package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.testing.RedisServer;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.function.IntFunction;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Blocking locks on virtual threads, hasp against Redisson, one client each, one redis-server, one run: per row
 * {@code threads} virtual threads each take {@code rounds} turns through {@code locks} locks with
 * {@code tryLock(60 s, 10 s)} and {@code unlock()}, the critical section a read, {@code Thread.yield()} and a write
 * of a plain counter per lock. Per row and library: whether the counters are exact (no update lost: their sum is
 * the critical sections that ran), the calls that failed
 * ({@code tryLock} false or an exception), the completed critical sections per second and the elapsed time. A row
 * that has not finished after {@value #ROW_LIMIT_SECONDS} s is stopped and reported as such. A small row per
 * library runs first, unreported, to warm up the JIT.
 *
 * <p>Needs a JDK 21+ (virtual threads; the build targets 17, so run it with a newer {@code java}):
 * {@code /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -cp lock-bench/target/benchmarks.jar io.hasp.bench.VirtualThreadRows}
 * (rows 10,000 x 5 on 100 locks, 100,000 x 2 on 1,000 locks and 5,000 x 2 on 1 lock; it starts its own
 * redis-server, {@code REDIS_SERVER} picks the binary as for the tests). Not a JMH benchmark: a row is a crowd of
 * threads, not a steady state.
 */
public final class VirtualThreadRows {

    /** The longest a row may run before it is stopped. */
    static final long ROW_LIMIT_SECONDS = 300;

    private VirtualThreadRows() {
    }

    /** One row: how many threads, turns each, locks. */
    private record Shape(int threads, int rounds, int locks) {
    }

    /** One library's outcome of a row. */
    private record Outcome(boolean exact, long failed, long done, double seconds, boolean finished) {
    }

    public static void main(String[] args) throws Exception {
        List<Shape> shapes = List.of(new Shape(10_000, 5, 100), new Shape(100_000, 2, 1_000), new Shape(5_000, 2, 1));
        try (RedisServer server = RedisServer.start()) {
            System.out.printf("java %s, redis %s%n", System.getProperty("java.version"), server.uri());
            System.out.println("| virtual threads x rounds on locks | library | exact | failed calls | critical sections/s | elapsed |");
            System.out.println("|---|---|---|---:|---:|---:|");
            warmUp(server.uri());
            for (Shape shape : shapes) {
                String row = String.format(Locale.ROOT, "%,d x %d on %,d", shape.threads, shape.rounds, shape.locks);
                try (HaspClient hasp = HaspClient.create(server.uri())) {
                    print(row, "hasp", run(shape, i -> hasp.getLock("vt:hasp:" + shape.threads + ":" + i)));
                }
                Config config = new Config();
                config.useSingleServer().setAddress(server.uri());
                RedissonClient redisson = Redisson.create(config);
                try {
                    print(row, "Redisson", run(shape, i -> redisson.getLock("vt:redisson:" + shape.threads + ":" + i)));
                } finally {
                    redisson.shutdown();
                }
            }
        }
        System.exit(0);
    }

    /** A row of 2,000 x 2 on 20 locks per library, not reported: the JIT and the clients' pools warm up. */
    private static void warmUp(String uri) throws Exception {
        Shape small = new Shape(2_000, 2, 20);
        try (HaspClient hasp = HaspClient.create(uri)) {
            run(small, i -> hasp.getLock("vt:warm:hasp:" + i));
        }
        Config config = new Config();
        config.useSingleServer().setAddress(uri);
        RedissonClient redisson = Redisson.create(config);
        try {
            run(small, i -> redisson.getLock("vt:warm:redisson:" + i));
        } finally {
            redisson.shutdown();
        }
    }

    private static void print(String row, String library, Outcome o) {
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %,d | %,.0f | %.1f s%s |%n", row, library,
                o.exact ? "yes" : "NO", o.failed, o.done / o.seconds, o.seconds, o.finished ? "" : " (stopped)");
    }

    private static Outcome run(Shape shape, IntFunction<Lock> lockOf) throws Exception {
        Lock[] locks = new Lock[shape.locks];
        for (int i = 0; i < shape.locks; i++) {
            locks[i] = lockOf.apply(i);
        }
        long[] counters = new long[shape.locks];
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = virtualThreads();
        List<Future<?>> runs = new ArrayList<>(shape.threads);
        long start = System.nanoTime();
        for (int t = 0; t < shape.threads; t++) {
            int first = t;
            runs.add(pool.submit(() -> {
                for (int r = 0; r < shape.rounds; r++) {
                    int which = (first + r) % shape.locks;
                    try {
                        if (!tryLock(locks[which])) {
                            failed.incrementAndGet();
                            continue;
                        }
                    } catch (RuntimeException | InterruptedException e) {
                        failed.incrementAndGet();
                        if (e instanceof InterruptedException) {
                            return null;
                        }
                        continue;
                    }
                    try {
                        long seen = counters[which];
                        Thread.yield();
                        counters[which] = seen + 1;
                        done.incrementAndGet();
                    } finally {
                        try {
                            locks[which].unlock();
                        } catch (RuntimeException e) {
                            failed.incrementAndGet();
                        }
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        boolean finished = pool.awaitTermination(ROW_LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            pool.shutdownNow();
            pool.awaitTermination(60, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long total = 0;
        for (long c : counters) {
            total += c;
        }
        boolean exact = total == done.get();
        return new Outcome(exact, failed.get(), done.get(), seconds, finished);
    }

    private static boolean tryLock(Lock lock) throws InterruptedException {
        if (lock instanceof HaspLock hasp) {
            return hasp.tryLock(60, 10, TimeUnit.SECONDS);
        }
        return ((RLock) lock).tryLock(60, 10, TimeUnit.SECONDS);
    }

    private static ExecutorService virtualThreads() throws Exception {
        Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        return (ExecutorService) factory.invoke(null);
    }
}
