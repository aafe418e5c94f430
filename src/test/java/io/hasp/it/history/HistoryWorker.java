package io.hasp.it.history;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.Replies;
import io.hasp.it.lock.LockWorker;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.hasp.testing.history.HistoryRecorder;
import io.hasp.testing.history.LockMode;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.PendingOperation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The main class of the child JVMs whose lock operations {@link HistoryCells} record and check. Arguments are
 * {@code key=value} pairs: {@code mode} (work | pause), {@code workload} (a {@link HistoryWorkload} label, fenced by
 * default), {@code uri}, {@code lock}, {@code resource} (a {@link FencedResource}), {@code process}, {@code threads},
 * {@code seconds} (and then, when {@code stop} names a file, until that file exists), {@code lease} and {@code hold} (ms; the hold is kept by the workloads that keep one),
 * {@code acks} (ms to wait for one replica's confirmation of each grant; 0, the default, for none),
 * {@code restarts} ({@code true}: one more client, made anew again and again, takes the lock and closes without
 * giving it back), {@code out} (the history file).
 *
 * <ul>
 *   <li>{@code work}: each thread runs rounds of its workload ({@link HistoryRounds}) until the time is up; then it
 *       writes the history and prints {@code DONE <operations>}.</li>
 *   <li>{@code pause}: takes the fenced lock once, records it, prints {@code LOCKED <token>}, then waits (BLPOP) for
 *       a word on {@code <resource>:go} (the test stops this JVM with SIGSTOP meanwhile, and pushes the word before
 *       it lets it go on); then writes with its token, unlocks, writes the history and prints
 *       {@code RESUMED <accepted> <hold end>}.</li>
 * </ul>
 *
 * <p>Times are {@code System.nanoTime}: every process runs on one Linux machine, where it is the machine's monotonic
 * clock, so the histories of the processes compare.
 */
public final class HistoryWorker {

    /** The longest a worker waits for its stop file. */
    private static final Duration MAX_RUN = Duration.ofMinutes(3);

    private HistoryWorker() {
    }

    /** Runs one worker process; see the class comment. */
    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        HistoryRecorder recorder = new HistoryRecorder(args.get("process"));
        HaspConfig.Builder config = HaspConfig.builder().uri(args.get("uri"));
        long acks = Long.parseLong(args.getOrDefault("acks", "0"));
        if (acks > 0) {
            config.replicaAcks(ReplicaAcks.of(1, Duration.ofMillis(acks)));
        }
        String name = args.get("lock");
        Duration lease = Duration.ofMillis(Long.parseLong(args.get("lease")));
        Duration hold = Duration.ofMillis(Long.parseLong(args.getOrDefault("hold", "0")));
        FencedResource resource = new FencedResource(args.get("resource"));
        try (HaspClient client = LockWorker.connect(config.build())) {
            if ("pause".equals(args.get("mode"))) {
                pause(client, client.getFencedLock(name), resource, recorder, lease, args.get("resource") + ":go");
            } else {
                HistoryWorkload workload = HistoryWorkload.of(args.getOrDefault("workload", "fenced"));
                HistoryRounds rounds = new HistoryRounds(client, recorder, name, lease, hold);
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args.get("seconds")));
                String stopFile = args.getOrDefault("stop", "");
                Path stop = stopFile.isEmpty() ? null : Path.of(stopFile);
                long cap = System.nanoTime() + MAX_RUN.toNanos();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < Integer.parseInt(args.get("threads")); t++) {
                    Runnable round = rounds.round(workload, client.getLock(name).owner(t + 1), resource);
                    threads.add(start("history-worker-" + t, () -> {
                        while (goesOn(end, stop, cap)) {
                            round.run();
                        }
                    }));
                }
                if (Boolean.parseBoolean(args.getOrDefault("restarts", "false"))) {
                    threads.add(start("history-restarts", () -> restarts(config.build(), rounds, recorder, name, lease,
                            end)));
                }
                for (Thread thread : threads) {
                    thread.join();
                }
                System.out.println("DONE " + recorder.operations().size());
                System.out.flush();
            }
            recorder.writeTo(Path.of(args.get("out")));
        }
        System.exit(0);
    }

    /** Whether the rounds go on: until {@code end}, and then until the stop file exists, at most until {@code cap}. */
    private static boolean goesOn(long end, Path stop, long cap) {
        long now = System.nanoTime();
        return now - end < 0 || (stop != null && !Files.exists(stop) && now - cap < 0);
    }

    private static Thread start(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.start();
        return thread;
    }

    /**
     * Until {@code end}: a client of its own takes the reentrant lock and is closed while it holds it, as a process
     * that restarts mid-hold; its hold must keep everyone else out until its lease runs out. Between two of them the
     * workers get the lock 20 times, so that the restarts do not crowd them out. Prints {@code RESTARTS <holds>}.
     */
    private static void restarts(HaspConfig config, HistoryRounds workers, HistoryRecorder recorder, String name,
            Duration lease, long end) {
        int holds = 0;
        while (System.nanoTime() - end < 0) {
            try (HaspClient incarnation = LockWorker.connect(config)) {
                HaspLock lock = incarnation.getLock(name);
                if (new HistoryRounds(incarnation, recorder, name, lease, Duration.ZERO)
                        .acquire(lock, lock.owner(1), LockMode.EXCLUSIVE, HistoryRounds.WAIT)) {
                    holds++;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // a client that could not connect: the next one tries
            }
            long grantsBefore = workers.grants();
            while (workers.grants() < grantsBefore + 20 && System.nanoTime() - end < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));   // the workers' turn
            }
        }
        System.out.println("RESTARTS " + holds);
    }

    private static void pause(HaspClient client, FencedLock lock, FencedResource resource, HistoryRecorder recorder,
            Duration lease, String go) throws Exception {
        LockOwner owner = lock.owner(1);
        PendingOperation acquire = recorder.begin(owner.field(), lock.getName(), OperationType.ACQUIRE);
        long token = lock.lockAndGetTokenAsync(lease, owner).get(30, TimeUnit.SECONDS);
        acquire.ok(token, acquire.invokedNanos() + lease.toNanos());
        CompletableFuture<HoldEnd> ended = lock.holdEnd(owner);
        System.out.println("LOCKED " + token);
        System.out.flush();
        // Stopped here by the test; it sets the key before it lets this JVM go on.
        while (client.commands().execute(Replies.STRING_LIST, "BLPOP", go, "1").get(30, TimeUnit.SECONDS).isEmpty()) {
            // BLPOP waits up to 1 s on the server for the test's word, then asks again
        }
        boolean accepted = resource.write(client.commands(), token, owner.field() + " after its pause")
                .get(30, TimeUnit.SECONDS);
        new HistoryRounds(client, recorder, lock.getName(), lease, Duration.ZERO).release(lock, owner, LockMode.EXCLUSIVE);
        HoldEnd end = ended.get(30, TimeUnit.SECONDS);
        System.out.println("RESUMED " + accepted + " " + end);
        System.out.flush();
    }
}
