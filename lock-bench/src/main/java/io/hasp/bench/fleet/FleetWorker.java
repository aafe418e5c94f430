package io.hasp.bench.fleet;

import io.hasp.bench.Peers;
import io.hasp.bench.peer.Peer;
import io.hasp.bench.peer.PeerFleet;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.redisson.api.RBucket;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * One process of a fleet run by {@link FleetDriver}: a client of one library and N threads that, until the
 * deadline, take the lock, GET the counter, SET it to the value + 1, and release the lock.
 *
 * <p>Protocol on stdin/stdout: prints {@code READY} once connected, waits for a line {@code GO}, runs for
 * the given seconds, prints {@code DONE <all critical sections> <elapsed nanos> <timed critical sections>}
 * (or {@code ERROR <message>}); the first number also counts the one critical section made before READY
 * and exits. Arguments: {@code <library> <uri> <lock name> <counter key> <threads> <seconds>}, the library
 * being {@code hasp}, {@code redisson} or a peer lock's method name ({@link Peer#method()}, its server
 * given by the same {@code -D} option as in the JMH forks).
 */
public final class FleetWorker {

    /** One critical section under one library's lock; implementations are thread-safe. */
    interface Fleet extends AutoCloseable {
        void criticalSection();

        @Override
        void close();
    }

    private FleetWorker() {
    }

    /**
     * Runs one fleet process.
     *
     * @param args library, uri, lock name, counter key, threads, seconds
     * @throws Exception on a broken protocol (the driver reports the process's output)
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.out.println("ERROR usage: <hasp|redisson|peer> <uri> <lock> <counter> <threads> <seconds>");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[4]);
        long runNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args[5]));
        try (Fleet fleet = open(args[0], args[1], args[2], args[3])) {
            fleet.criticalSection(); // connects lazily-created pieces (scripts, subscriptions) before the clock starts
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String go = in.readLine();
            if (!"GO".equals(go)) {
                System.out.println("ERROR expected GO, got " + go);
                System.exit(2);
            }
            AtomicLong done = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
            long deadline = start + runNanos;
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Thread worker = new Thread(() -> {
                    try {
                        while (System.nanoTime() < deadline) {
                            fleet.criticalSection();
                            done.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                }, "fleet-worker-" + i);
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            long elapsed = System.nanoTime() - start;
            if (failure.get() != null) {
                System.out.println("ERROR " + failure.get());
                System.exit(1);
            }
            // the warm-up critical section above counts too: the driver compares the counter with all of them
            System.out.println("DONE " + (done.get() + 1) + " " + elapsed + " " + done.get());
            System.out.flush();
        }
        System.exit(0);
    }

    static Fleet open(String library, String uri, String lockName, String counterKey) {
        switch (library) {
            case "redisson":
                return redisson(uri, lockName, counterKey);
            case "hasp":
                return HaspFleet.open(uri, lockName, counterKey);
            default:
                return peer(Peer.ofMethod(library), uri, lockName, counterKey);
        }
    }

    /** A peer lock's fleet ({@link PeerFleet}); its servers come from the -D options the driver passes on. */
    private static Fleet peer(Peer peer, String uri, String lockName, String counterKey) {
        PeerFleet fleet = new PeerFleet(peer, uri, lockName, counterKey);
        return new Fleet() {
            @Override
            public void criticalSection() {
                try {
                    fleet.criticalSection();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {
                fleet.close();
            }
        };
    }

    private static Fleet redisson(String uri, String lockName, String counterKey) {
        RedissonClient client = Peers.redisson(uri);
        RLock lock = client.getLock(lockName);
        RBucket<String> counter = client.getBucket(counterKey, StringCodec.INSTANCE);
        return new Fleet() {
            @Override
            public void criticalSection() {
                lock.lock();
                try {
                    String value = counter.get();
                    counter.set(Long.toString(value == null ? 1 : Long.parseLong(value) + 1));
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public void close() {
                client.shutdown();
            }
        };
    }
}
