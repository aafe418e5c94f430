package io.hasp.demo;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.lock.HaspLock;
import io.hasp.micrometer.HaspMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker JVM of the demo: its worker threads each increment the locked counter (GET then SET
 * under the hasp lock) and the unlocked counter (GET then SET, no lock) {@code increments} times.
 * Prints {@code progress <n>} lines while it runs and {@code done <n> <busy ms>} at the end, for
 * the parent, then {@code meters <acquisitions> <wait p50 us> <wait p99 us> <holds ended> <lost holds>
 * <renewal calls>}: what {@link HaspMetrics} recorded of this worker's client, as an operator would see it.
 */
final class DemoWorker {

    private DemoWorker() {
    }

    static void run(DemoOptions o) throws Exception {
        AtomicLong done = new AtomicLong();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return id.getName().equals("hasp.lock.acquire")
                        ? DistributionStatisticConfig.builder().percentiles(0.5, 0.99).build().merge(config) : config;
            }
        });
        HaspMetrics metrics = HaspMetrics.builder().clientName("demo").build();
        try (HaspClient client = HaspClient.create(HaspConfig.fromUri(o.redis).toBuilder().listener(metrics).build())) {
            metrics.bindTo(registry);
            metrics.watch(client);
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
            printMeters(registry);
            System.out.flush();
        }
    }

    /** One line of what the meters recorded; see the class comment. */
    private static void printMeters(MeterRegistry registry) {
        Timer acquire = registry.get("hasp.lock.acquire").tag("outcome", "acquired").timer();
        double p50 = 0;
        double p99 = 0;
        for (ValueAtPercentile v : acquire.takeSnapshot().percentileValues()) {
            if (v.percentile() == 0.5) {
                p50 = v.value(TimeUnit.MICROSECONDS);
            } else if (v.percentile() == 0.99) {
                p99 = v.value(TimeUnit.MICROSECONDS);
            }
        }
        long held = registry.find("hasp.lock.held").timers().stream().mapToLong(Timer::count).sum();
        double lost = registry.find("hasp.lock.lost").counters().stream().mapToDouble(c -> c.count()).sum();
        System.out.printf(Locale.ROOT, "meters %d %.0f %.0f %d %.0f %d%n", acquire.count(), p50, p99, held, lost,
                registry.get("hasp.lock.renewals").timer().count());
    }

    /** The classic lost-update pattern: read, add one, write back. */
    private static void increment(RedisCommands redis, String key) {
        String value = redis.get(key).join();
        long next = (value == null ? 0 : Long.parseLong(value)) + 1;
        redis.set(key, Long.toString(next)).join();
    }
}
