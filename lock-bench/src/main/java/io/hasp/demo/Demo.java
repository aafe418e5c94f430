package io.hasp.demo;

import io.hasp.HaspClient;
import io.hasp.testing.RedisServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The demo: the classic lost-update experiment. W workers spread over at least two JVM processes
 * each increment two counters in Redis N times with GET then SET: one under a hasp lock, one
 * without. The locked counter ends exact, the unlocked one short.
 *
 * <p>With no arguments it starts a private redis-server (the test fixture's binary resolution:
 * {@code $REDIS_SERVER}, {@code redis-server} on the PATH, or the one shipped in a jar) and exits
 * with status 1 if the locked counter is not exact. With {@code --redis URI} it uses that server,
 * where other clients may share the counter, so it reports the values only. Run it with
 * {@code ./mvnw -q -B -pl lock-bench -am package -DskipTests && java -jar lock-bench/target/hasp-demo.jar}
 * and append any of the flags listed by {@code --help}.
 */
public final class Demo {

    private Demo() {
    }

    /** Runs the demo and exits with its status; see the class comment for the flags. */
    public static void main(String[] args) throws Exception {
        System.exit(run(args));
    }

    /**
     * Runs the demo (or, with {@code --worker-process}, one worker process of it).
     *
     * @return the exit status: 0 done, 1 the locked counter was not exact on the private server,
     *     2 a worker process failed, 64 bad arguments
     */
    public static int run(String... args) throws Exception {
        DemoOptions o;
        try {
            o = DemoOptions.parse(args);
        } catch (IllegalArgumentException e) {
            boolean help = e.getMessage().equals("help");
            if (!help) {
                System.err.println("error: " + e.getMessage());
            }
            System.err.println(DemoOptions.USAGE);
            return help ? 0 : 64;
        }
        if (o.workerProcess) {
            DemoWorker.run(o);
            return 0;
        }
        return runParent(o);
    }

    private static int runParent(DemoOptions o) throws Exception {
        RedisServer server = null;
        String uri = o.redis;
        if (uri == null) {
            server = RedisServer.start();
            uri = server.uri();
        }
        try (HaspClient client = HaspClient.create(uri)) {
            client.commands().execute(io.hasp.Replies.LONG, "SETNX", o.counter, "0").join();
            long lockedBefore = Long.parseLong(client.commands().get(o.counter).join());
            String unlockedValue = client.commands().get(o.unlockedCounter()).join();
            long unlockedBefore = unlockedValue == null ? 0 : Long.parseLong(unlockedValue);
            long expected = (long) o.workers * o.increments;
            int processes = Math.min(o.processes, Math.max(2, o.workers));
            System.out.printf("hasp demo: %d workers in %d JVM processes, %,d increments each, on %s%s%n",
                    o.workers, processes, o.increments, uri, server != null ? " (private redis-server " + server.version() + ")" : "");
            System.out.printf("  locked counter   %s (starts at %,d)%n  unlocked counter %s (starts at %,d)%n",
                    o.counter, lockedBefore, o.unlockedCounter(), unlockedBefore);

            long start = System.nanoTime();
            AtomicLongArray busyMillis = new AtomicLongArray(processes);
            int failed = runWorkers(o, uri, processes, expected, busyMillis);
            double seconds = (System.nanoTime() - start) / 1e9;
            long busiest = 1;
            for (int i = 0; i < processes; i++) {
                busiest = Math.max(busiest, busyMillis.get(i));
            }

            long lockedAfter = Long.parseLong(client.commands().get(o.counter).join());
            String unlockedValue2 = client.commands().get(o.unlockedCounter()).join();
            long unlockedAfter = unlockedValue2 == null ? 0 : Long.parseLong(unlockedValue2);
            long locked = lockedAfter - lockedBefore;
            long unlocked = unlockedAfter - unlockedBefore;
            System.out.printf("%nresult after %.1f s; the workers ran %.1f s: %,.0f lock acquisitions/s%n", seconds,
                    busiest / 1e3, expected * 1e3 / busiest);
            System.out.printf("  with hasp lock   %s = %,d  (+%,d, expected +%,d)  %s%n", o.counter, lockedAfter,
                    locked, expected, locked == expected ? "exact" : "MISMATCH");
            System.out.printf("  without lock     %s = %,d  (+%,d, expected +%,d)  %,d updates lost%n",
                    o.unlockedCounter(), unlockedAfter, unlocked, expected, expected - unlocked);
            if (failed > 0) {
                System.out.println("  " + failed + " worker process(es) failed");
                return 2;
            }
            if (server != null && locked != expected) {
                return 1;
            }
            if (server == null && locked != expected) {
                System.out.println("  (a shared server: other clients may also have changed the locked counter)");
            }
            return 0;
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    private static int runWorkers(DemoOptions o, String uri, int processes, long expected, AtomicLongArray busyMillis)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> children = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        AtomicLongArray progress = new AtomicLongArray(processes);
        for (int p = 0; p < processes; p++) {
            int here = o.workers / processes + (p < o.workers % processes ? 1 : 0);
            if (here == 0) {
                continue;
            }
            List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                    Demo.class.getName()));
            command.addAll(o.workerArguments(uri, here));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            children.add(child);
            int index = p;
            Thread reader = new Thread(() -> follow(child, index, progress, busyMillis), "demo-reader-" + p);
            reader.setDaemon(true);
            reader.start();
            readers.add(reader);
        }
        try {
            long lastPrinted = -1;
            for (;;) {
                Process alive = children.stream().filter(Process::isAlive).findFirst().orElse(null);
                long sum = 0;
                for (int i = 0; i < processes; i++) {
                    sum += progress.get(i);
                }
                if (sum != lastPrinted) {
                    System.out.printf("  progress: %,d / %,d increments (%d%%)%n", sum, expected, sum * 100 / expected);
                    lastPrinted = sum;
                }
                if (alive == null) {
                    break;
                }
                alive.waitFor(1, TimeUnit.SECONDS);
            }
            for (Thread r : readers) {
                r.join(5_000);
            }
            int failed = 0;
            for (Process c : children) {
                if (c.waitFor() != 0) {
                    failed++;
                }
            }
            return failed;
        } finally {
            for (Process c : children) {
                c.destroyForcibly();
            }
        }
    }

    private static void follow(Process child, int index, AtomicLongArray progress, AtomicLongArray busyMillis) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] words = line.trim().split(" ");
                if (words[0].equals("progress") || words[0].equals("done")) {
                    progress.set(index, Long.parseLong(words[1]));
                    if (words.length > 2) {
                        busyMillis.set(index, Long.parseLong(words[2]));
                    }
                } else if (words[0].equals("meters") && words.length == 7) {
                    System.out.printf("  [worker %d] meters (hasp-micrometer): %s acquisitions, wait p50 %s us, p99 %s us;"
                            + " %s holds ended, %s lost; %s watchdog renewal calls%n", index, words[1], words[2], words[3],
                            words[4], words[5], words[6]);
                } else {
                    System.out.println("  [worker " + index + "] " + line);
                }
            }
        } catch (Exception e) {
            System.out.println("  [worker " + index + "] output lost: " + e);
        }
    }
}
