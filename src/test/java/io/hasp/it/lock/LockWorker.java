package io.hasp.it.lock;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisCommands;
import io.hasp.RedisException;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The main class of the child JVMs that the lock's safety and fault tests start. Arguments are
 * {@code key=value} pairs: {@code mode} (count | share | hold | wait | virtual | once), {@code uri}, {@code lock},
 * {@code counter}, {@code threads}, {@code increments} (for this process), {@code watchdog} (ms),
 * {@code kind} (reentrant, the default, or fair: {@code getFairLock}), {@code library} (hasp, the default, or
 * redisson: the share mode takes Redisson's {@code getLock} of the same name, as a service not yet migrated would),
 * {@code go} (share mode: prints {@code READY} and starts once the test sets that key).
 *
 * <ul>
 *   <li>{@code count}: threads increment the counter with GET then SET under {@code tryLock(60 s)},
 *       retrying on connection errors; prints {@code DONE <increments> <early-false>}, where
 *       early-false counts tryLock calls that returned false before their 60 s had passed.</li>
 *   <li>{@code share}: one thread increments the counter with GET then SET under blocking {@code lock()} until
 *       the counter reaches {@code total}, shared by every process of the fleet; prints {@code DONE <its increments> 0}.</li>
 *   <li>{@code hold}: takes the lock with the watchdog, prints {@code LOCKED}, then waits to be killed.</li>
 *   <li>{@code wait}: prints {@code WAITING}, then waits for the lock with blocking {@code lock()} until killed
 *       (fails if it ever gets it).</li>
 *   <li>{@code virtual}: the count mode on virtual threads with blocking {@code lock()}.</li>
 *   <li>{@code once}: takes the lock with blocking {@code lock()}, appends {@code id} to the list
 *       {@code served} while holding it, unlocks and prints {@code SERVED <id>}.</li>
 * </ul>
 */
public final class LockWorker {

    private LockWorker() {
    }

    /** Runs one worker process; see the class comment. */
    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        HaspConfig config = HaspConfig.builder()
                .uri(args.get("uri"))
                .watchdogLease(Duration.ofMillis(Long.parseLong(args.getOrDefault("watchdog", "30000"))))
                .build();
        try (HaspClient client = connect(config)) {
            HaspLock lock = "fair".equals(args.get("kind")) ? client.getFairLock(args.get("lock"))
                    : client.getLock(args.get("lock"));
            switch (args.get("mode")) {
                case "hold" -> {
                    lock.lock();
                    System.out.println("LOCKED " + lock.currentOwner());
                    System.out.flush();
                    new java.util.concurrent.CountDownLatch(1).await();   // held until the test kills this JVM
                }
                case "count" -> count(client, lock, args, false);
                case "share" -> {
                    long total = Long.parseLong(args.get("total"));
                    awaitGo(client.commands(), args.get("go"));
                    if ("redisson".equals(args.get("library"))) {
                        Config redissonConfig = new Config();
                        redissonConfig.useSingleServer().setAddress(args.get("uri"));
                        RedissonClient redisson = Redisson.create(redissonConfig);
                        try {
                            share(client.commands(), redisson.getLock(args.get("lock")), args.get("counter"), total);
                        } finally {
                            redisson.shutdown();
                        }
                    } else {
                        share(client.commands(), lock, args.get("counter"), total);
                    }
                }
                case "wait" -> {
                    System.out.println("WAITING");
                    System.out.flush();
                    lock.lock();
                    throw new IllegalStateException("the waiter got the lock: the test means to kill it while it waits");
                }
                case "virtual" -> count(client, lock, args, true);
                case "once" -> {
                    lock.lock();
                    try {
                        client.commands().execute(io.hasp.Replies.LONG, "RPUSH", args.get("served"), args.get("id"))
                                .get(10, TimeUnit.SECONDS);
                    } finally {
                        lock.unlock();
                    }
                    System.out.println("SERVED " + args.get("id"));
                    System.out.flush();
                }
                default -> throw new IllegalArgumentException("mode: " + args.get("mode"));
            }
        }
        System.exit(0);
    }

    /** Connects, retrying while the test's proxy cuts connections during the handshake (for every worker JVM). */
    public static HaspClient connect(HaspConfig config) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return HaspClient.create(config);
            } catch (RedisException e) {
                if (attempt == 50) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private static void count(HaspClient client, HaspLock lock, Map<String, String> args, boolean virtual)
            throws Exception {
        int threads = Integer.parseInt(args.get("threads"));
        int increments = Integer.parseInt(args.get("increments"));
        String counter = args.get("counter");
        AtomicInteger remaining = new AtomicInteger(increments);
        AtomicInteger earlyFalse = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = virtual ? virtualThreads() : Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                while (remaining.getAndDecrement() > 0) {
                    incrementUnderLock(client.commands(), lock, counter, earlyFalse, virtual);
                    done.incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        System.out.println("DONE " + done.get() + " " + earlyFalse.get());
        System.out.flush();
    }

    /**
     * With a {@code go} key: prints {@code READY} and waits (up to a minute) until the test sets that key, so that
     * every process of a fleet starts counting at once, however long its library takes to start.
     */
    private static void awaitGo(RedisCommands redis, String go) throws Exception {
        if (go == null) {
            return;
        }
        System.out.println("READY");
        System.out.flush();
        if (!Conditions.await(Duration.ofMinutes(1), () -> redis.get(go).join() != null)) {
            throw new IllegalStateException("no go within a minute: " + go);
        }
    }

    private static void share(RedisCommands redis, Lock lock, String counter, long total)
            throws InterruptedException {
        long mine = 0;
        for (;;) {
            lock.lock();
            try {
                long before = readCounter(redis, counter);
                if (before >= total) {
                    break;
                }
                writeCounter(redis, counter, before);
                mine++;
            } finally {
                unlock(lock);
            }
        }
        System.out.println("DONE " + mine + " 0");
        System.out.flush();
    }

    private static void incrementUnderLock(RedisCommands redis, HaspLock lock, String counter,
            AtomicInteger earlyFalse, boolean blockingLock) throws InterruptedException {
        for (;;) {
            if (blockingLock) {
                lock.lock();
            } else {
                long start = System.nanoTime();
                if (!lock.tryLock(60, TimeUnit.SECONDS)) {
                    if (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60)) {
                        earlyFalse.incrementAndGet();
                    }
                    continue;
                }
            }
            try {
                long before = readCounter(redis, counter);
                writeCounter(redis, counter, before);
            } finally {
                unlock(lock);
            }
            return;
        }
    }

    private static long readCounter(RedisCommands redis, String counter) throws InterruptedException {
        for (;;) {
            try {
                String value = redis.get(counter).get();
                return value == null ? 0 : Long.parseLong(value);
            } catch (java.util.concurrent.ExecutionException e) {
                pause(e);
            }
        }
    }

    /** SET before+1; a reply lost after the write is detected by reading again (we hold the lock). */
    private static void writeCounter(RedisCommands redis, String counter, long before) throws InterruptedException {
        for (;;) {
            try {
                redis.set(counter, Long.toString(before + 1)).get();
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                pause(e);
                if (readCounter(redis, counter) == before + 1) {
                    return;
                }
            }
        }
    }

    private static void unlock(Lock lock) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                lock.unlock();
                return;
            } catch (IllegalMonitorStateException e) {
                if (attempt == 0) {
                    throw e;
                }
                return; // an earlier attempt did release it
            } catch (RedisException e) {
                pause(e);
            }
        }
    }

    private static void pause(Exception e) throws InterruptedException {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        if (!(cause instanceof RedisException)) {
            throw new IllegalStateException(cause);
        }
        Thread.sleep(5);
    }

    private static ExecutorService virtualThreads() throws Exception {
        Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        return (ExecutorService) factory.invoke(null);
    }
}
