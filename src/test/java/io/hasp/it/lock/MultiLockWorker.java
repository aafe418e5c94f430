package io.hasp.it.lock;

import io.hasp.HaspClient;
import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.lock.HaspLock;
import io.hasp.lock.MultiLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The main class of a JVM that {@link MultiLockIT} starts, and the loop the test's own JVM runs too:
 * threads take one multi-lock over {@code names} (given in that order) with blocking {@code lock()},
 * add one to a counter per name with GET then SET, and unlock. Arguments: the server URI, the names
 * (comma-separated), threads, rounds per thread, and the list whose first element starts the loop. Prints
 * {@code READY} once connected, then {@code DONE <rounds>}.
 */
public final class MultiLockWorker {

    private MultiLockWorker() {
    }

    /** Runs the loop in this JVM; see the class comment. */
    public static void main(String[] args) throws Exception {
        try (HaspClient client = HaspClient.create(args[0])) {
            // Start together with the test's own JVM: it sets the key once it read READY.
            System.out.println("READY");
            System.out.flush();
            // BLPOP waits on the server, one second at a time, for the test's RPUSH: no polling.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (client.commands().execute(Replies.STRING_LIST, "BLPOP", args[4], "1").get(30, TimeUnit.SECONDS)
                    .isEmpty()) {  // nil: a second passed without the signal
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("no start signal at " + args[4]);
                }
            }
            int done = run(client, List.of(args[1].split(",")), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            System.out.println("DONE " + done);
            System.out.flush();
        }
        System.exit(0);
    }

    /** {@code threads} threads, {@code rounds} rounds each, on {@code client}; returns the rounds done. */
    static int run(HaspClient client, List<String> names, int threads, int rounds) throws Exception {
        List<HaspLock> locks = new ArrayList<>();
        for (String name : names) {
            locks.add(client.getLock(name));
        }
        MultiLock multi = MultiLock.of(locks);
        RedisCommands redis = client.commands();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                work.add(pool.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        multi.lock();
                        try {
                            for (String name : names) {
                                String counter = "count:" + name;
                                String v = redis.get(counter).get(30, TimeUnit.SECONDS);
                                redis.set(counter, Long.toString(v == null ? 1 : Long.parseLong(v) + 1))
                                        .get(30, TimeUnit.SECONDS);
                            }
                        } finally {
                            multi.unlock();
                        }
                    }
                    return rounds;
                }));
            }
            int done = 0;
            for (Future<Integer> f : work) {
                done += f.get(5, TimeUnit.MINUTES);
            }
            return done;
        } finally {
            pool.shutdownNow();
        }
    }
}
