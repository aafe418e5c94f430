package io.hasp.demo;

import io.hasp.HaspClient;
import io.hasp.RedisCommands;
import io.hasp.lock.HaspLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker JVM of the demo: its worker threads each increment the locked counter (GET then SET
 * under the hasp lock) and the unlocked counter (GET then SET, no lock) {@code increments} times.
 * Prints {@code progress <n>} lines while it runs and {@code done <n> <busy ms>} at the end, for
 * the parent.
 */
final class DemoWorker {

    private DemoWorker() {
    }

    static void run(DemoOptions o) throws Exception {
        AtomicLong done = new AtomicLong();
        try (HaspClient client = HaspClient.create(o.redis)) {
            HaspLock lock = client.getLock(o.lock);
            RedisCommands redis = client.commands();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            long start = System.nanoTime();
            for (int w = 0; w < o.workers; w++) {
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < o.increments; i++) {
                            lock.lock();
                            try {
                                increment(redis, o.counter);
                            } finally {
                                lock.unlock();
                            }
                            increment(redis, o.unlockedCounter());
                            done.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }, "demo-worker-" + w);
                threads.add(t);
                t.start();
            }
            Thread progress = new Thread(() -> {
                try {
                    for (;;) {
                        System.out.println("progress " + done.get());
                        System.out.flush();
                        Thread.sleep(250);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "demo-progress");
            progress.setDaemon(true);
            progress.start();
            for (Thread t : threads) {
                t.join();
            }
            progress.interrupt();
            if (!failures.isEmpty()) {
                failures.get(0).printStackTrace();
                System.out.println("failed " + failures.get(0));
                System.exit(2);
            }
            System.out.println("done " + done.get() + " " + (System.nanoTime() - start) / 1_000_000);
            System.out.flush();
        }
    }

    /** The classic lost-update pattern: read, add one, write back. */
    private static void increment(RedisCommands redis, String key) {
        String value = redis.get(key).join();
        long next = (value == null ? 0 : Long.parseLong(value)) + 1;
        redis.set(key, Long.toString(next)).join();
    }
}
