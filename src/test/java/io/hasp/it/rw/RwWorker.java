package io.hasp.it.rw;

import io.hasp.HaspClient;
import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The work of the read/write concurrency test, run in the test JVM and as the main class of a child
 * JVM: threads that each take the read lock (70 %) or the write lock (30 %) of one name and record,
 * inside the critical section, in Redis how many readers and writers are in. A writer that finds
 * anyone else in, or a reader that finds a writer in, increments {@code <prefix>:violations}; each
 * thread pushes the most readers it saw together onto {@code <prefix>:max-readers} and counts its
 * sections in {@code <prefix>:sections}.
 */
public final class RwWorker {

    private RwWorker() {
    }

    /** Child JVM entry: {@code <uri> <lock name> <key prefix> <threads> <iterations> <seed>}. */
    public static void main(String[] args) throws Exception {
        try (HaspClient client = RwTesting.client(args[0])) {
            run(client, args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Long.parseLong(args[5]));
        }
        System.out.println("rw-worker done");
    }

    /** Runs {@code threads} threads of {@code iterations} sections each and waits for them. */
    static void run(HaspClient client, String name, String prefix, int threads, int iterations, long seed)
            throws Exception {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            CompletableFuture<Void> finished = new CompletableFuture<>();
            SplittableRandom random = new SplittableRandom(seed * 31 + t);
            Thread thread = new Thread(() -> {
                try {
                    sections(client, name, prefix, iterations, random);
                    finished.complete(null);
                } catch (Throwable e) {
                    finished.completeExceptionally(e);
                }
            }, "rw-worker-" + t);
            thread.start();
            started.add(thread);
            done.add(finished);
        }
        CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.MINUTES);
        for (Thread thread : started) {
            thread.join();
        }
    }

    private static void sections(HaspClient client, String name, String prefix, int iterations,
            SplittableRandom random) {
        HaspReadWriteLock lock = HaspReadWriteLocks.of(client).get(name);
        RedisCommands redis = client.commands();
        String readers = prefix + ":readers";
        String writers = prefix + ":writers";
        long most = 0;
        for (int i = 0; i < iterations; i++) {
            if (random.nextInt(10) < 7) {
                lock.readLock().lock();
                try {
                    long in = join(redis.execute(Replies.LONG, "INCR", readers));
                    most = Math.max(most, in);
                    String writing = join(redis.get(writers));
                    join(redis.ping());
                    if (writing != null && !writing.equals("0")) {
                        join(redis.execute(Replies.LONG, "INCR", prefix + ":violations"));
                    }
                    join(redis.execute(Replies.LONG, "DECR", readers));
                } finally {
                    lock.readLock().unlock();
                }
            } else {
                lock.writeLock().lock();
                try {
                    long in = join(redis.execute(Replies.LONG, "INCR", writers));
                    String reading = join(redis.get(readers));
                    if (in != 1 || (reading != null && !reading.equals("0"))) {
                        join(redis.execute(Replies.LONG, "INCR", prefix + ":violations"));
                    }
                    join(redis.execute(Replies.LONG, "DECR", writers));
                } finally {
                    lock.writeLock().unlock();
                }
            }
            join(redis.execute(Replies.LONG, "INCR", prefix + ":sections"));
        }
        join(redis.execute(Replies.LONG, "RPUSH", prefix + ":max-readers", Long.toString(most)));
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("command failed", e);
        }
    }
}
