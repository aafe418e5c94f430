package io.hasp.it.lock;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.internal.ClientInternals;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.RedisCommands;
import io.hasp.lock.HaspLock;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A child JVM (JDK 21+) for {@code VirtualThreadsIT}: {@code threads} virtual threads, each taking
 * {@code rounds} turns through {@code locks} locks with the blocking {@code lock()} (the watchdog lease),
 * a GET then SET of the lock's counter inside, on one client. A JFR recording catches every
 * {@code jdk.VirtualThreadPinned} event longer than {@code pinnedMillis}. Prints {@code PINNED <n>} and,
 * for each such event, {@code PINNED-AT <top frames>}, then {@code DONE <critical sections>};
 * before them {@code DIRECT open=<n>}, the direct connections the blocking calls opened (-1: none on this topology).
 * Beside them one virtual thread holds {@code <prefix>:long} for {@code longHoldMillis}, sleeping, and prints
 * {@code WATCHDOG held=<whether the watchdog kept it>}. Arguments are {@code key=value}: {@code uri},
 * {@code prefix}, {@code locks}, {@code threads}, {@code rounds}, {@code pinnedMillis}, {@code watchdog} (ms),
 * {@code longHoldMillis}.
 */
public final class VirtualThreadsWorker {

    private VirtualThreadsWorker() {
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        String prefix = args.get("prefix");
        int locks = Integer.parseInt(args.get("locks"));
        int threads = Integer.parseInt(args.get("threads"));
        int rounds = Integer.parseInt(args.get("rounds"));
        HaspConfig config = HaspConfig.builder().uri(args.get("uri"))
                .watchdogLease(Duration.ofMillis(Long.parseLong(args.getOrDefault("watchdog", "30000")))).build();
        Path recordingFile = Files.createTempFile("hasp-virtual-threads", ".jfr");
        try (HaspClient client = HaspClient.create(config); Recording recording = new Recording()) {
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(Long.parseLong(args.get("pinnedMillis"))))
                    .withStackTrace();
            recording.start();
            RedisCommands redis = client.commands();
            List<Future<?>> runs = new ArrayList<>(threads);
            ExecutorService pool = virtualThreads();
            long longHold = Long.parseLong(args.getOrDefault("longHoldMillis", "0"));
            Future<Boolean> heldThroughLeases = pool.submit(() -> holdLong(client.getLock(prefix + ":long"), longHold));
            try {
                for (int t = 0; t < threads; t++) {
                    int first = t;
                    runs.add(pool.submit(() -> {
                        for (int r = 0; r < rounds; r++) {
                            int which = (first + r) % locks;
                            HaspLock lock = client.getLock(prefix + ":lock:" + which);
                            String counter = prefix + ":counter:" + which;
                            lock.lock();
                            try {
                                String seen = redis.get(counter).join();
                                Thread.yield();
                                redis.set(counter, Long.toString(seen == null ? 1 : Long.parseLong(seen) + 1)).join();
                            } finally {
                                lock.unlock();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> run : runs) {
                    run.get();
                }
                System.out.println("WATCHDOG held=" + heldThroughLeases.get());
            } finally {
                pool.shutdown();
            }
            DirectConnections direct = ClientInternals.directConnections(client);
            System.out.println("DIRECT open=" + (direct == null ? -1 : direct.openConnections()));
            recording.stop();
            recording.dump(recordingFile);
            List<RecordedEvent> pinned = RecordingFile.readAllEvents(recordingFile);
            System.out.println("PINNED " + pinned.size());
            for (RecordedEvent event : pinned) {
                StringBuilder frames = new StringBuilder();
                if (event.getStackTrace() != null) {
                    for (RecordedFrame frame : event.getStackTrace().getFrames().subList(0,
                            Math.min(8, event.getStackTrace().getFrames().size()))) {
                        frames.append(' ').append(frame.getMethod().getType().getName()).append('.')
                                .append(frame.getMethod().getName());
                    }
                }
                System.out.println("PINNED-AT " + event.getDuration().toMillis() + " ms:" + frames);
            }
            System.out.println("DONE " + (long) threads * rounds);
            System.out.flush();
        } finally {
            Files.deleteIfExists(recordingFile);
        }
        System.exit(0);
    }

    /** Holds {@code lock} for {@code millis} (sleeping, so the virtual thread unmounts); whether it was still held. */
    private static boolean holdLong(HaspLock lock, long millis) throws InterruptedException {
        lock.lock();
        try {
            Thread.sleep(millis);
            return lock.isHeldByCurrentThread() && lock.remainTimeToLive() > 0;
        } finally {
            lock.unlock();
        }
    }

    private static ExecutorService virtualThreads() throws Exception {
        Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        return (ExecutorService) factory.invoke(null);
    }
}
