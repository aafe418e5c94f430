package io.hasp.it.sync;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.RedisProbe;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.Redisson;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The main class of a child JVM in a fleet on one semaphore: {@code threads} threads, each {@code rounds} times
 * taking one permit of semaphore {@code semaphore} with {@code library}'s client (hasp or redisson), counting itself
 * in the holders key {@code holders} while it holds it ({@code INCR}, a short hold, {@code DECR}), and giving the
 * permit back. Prints {@code DONE <acquisitions> <most holders seen> <times more than permits held>}, and exits 0;
 * an error exits 1.
 */
public final class SemaphoreFleetWorker {

    private SemaphoreFleetWorker() {
    }

    /** Takes one permit, waiting as long as it takes. */
    private interface Acquire {
        void run() throws InterruptedException;
    }

    /** One permit, taken and given back with one library's client. */
    private record Permit(Acquire acquire, Runnable release) {
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        String uri = args.get("uri");
        int port = Integer.parseInt(args.get("port"));
        int permits = Integer.parseInt(args.get("permits"));
        int threads = Integer.parseInt(args.get("threads"));
        int rounds = Integer.parseInt(args.get("rounds"));
        String name = args.get("semaphore");
        String holders = args.get("holders");
        AutoCloseable client;
        Permit permit;
        if (args.get("library").equals("hasp")) {
            HaspClient hasp = HaspClient.create(HaspConfig.builder().uri(uri).build());
            HaspSemaphore semaphore = hasp.getSemaphore(name);
            permit = new Permit(semaphore::acquire, semaphore::release);
            client = hasp;
        } else {
            Config config = new Config();
            config.useSingleServer().setAddress(uri);
            RedissonClient redisson = Redisson.create(config);
            RSemaphore semaphore = redisson.getSemaphore(name);
            permit = new Permit(semaphore::acquire, semaphore::release);
            client = redisson::shutdown;
        }
        AtomicLong acquisitions = new AtomicLong();
        AtomicLong most = new AtomicLong();
        AtomicLong over = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try (RedisProbe probe = RedisProbe.connect(port)) {
                    for (int r = 0; r < rounds; r++) {
                        permit.acquire().run();
                        try {
                            long now = (Long) probe.call("INCR", holders);
                            most.accumulateAndGet(now, Math::max);
                            if (now > permits) {
                                over.incrementAndGet();
                            }
                            acquisitions.incrementAndGet();
                            Thread.sleep(1);
                            probe.call("DECR", holders);
                        } finally {
                            permit.release().run();
                        }
                    }
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            }, "fleet-" + t);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        client.close();
        if (!errors.isEmpty()) {
            errors.get(0).printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
        System.out.println("DONE " + acquisitions.get() + " " + most.get() + " " + over.get());
        System.out.flush();
        System.exit(0);
    }
}
