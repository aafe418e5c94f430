package io.hasp.it.history;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisException;
import io.hasp.it.lock.LockWorker;
import io.hasp.Replies;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.hasp.testing.history.HistoryRecorder;
import io.hasp.testing.history.LockMode;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.PendingOperation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The main class of the child JVMs whose lock operations {@link LockHistoryIT} records and checks. Arguments are
 * {@code key=value} pairs: {@code mode} (work | pause), {@code kind} (fenced, the default, or reentrant),
 * {@code uri}, {@code lock}, {@code resource} (a {@link FencedResource}), {@code process}, {@code threads},
 * {@code seconds}, {@code lease} (ms), {@code out} (the history file).
 *
 * <ul>
 *   <li>{@code work}: each thread, until the time is up, takes the lock (with a wait of 2 s and the lease) and
 *       gives it back: the fenced lock's holder writes its token to the resource in between; the reentrant lock's
 *       holder takes it again (a re-entry, which resets the lease) and unlocks twice. Every acquire, re-entry and
 *       release is recorded with its outcome (unknown when the call failed in a way that leaves it open); then it
 *       writes the history and prints {@code DONE <operations>}.</li>
 *   <li>{@code pause}: takes the lock once, records it, prints {@code LOCKED <token>}, then waits (BLPOP) for a
 *       word on {@code <resource>:go} (the test stops this JVM with SIGSTOP meanwhile, and pushes the word before it
 *       lets it go on); then writes with its token, unlocks, writes the history and prints
 *       {@code RESUMED <accepted> <hold end>}.</li>
 * </ul>
 *
 * <p>Times are {@code System.nanoTime}: every process runs on one Linux machine, where it is the machine's monotonic
 * clock, so the histories of the processes compare.
 */
public final class HistoryWorker {

    private HistoryWorker() {
    }

    /** Runs one worker process; see the class comment. */
    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String a : argv) {
            int eq = a.indexOf('=');
            args.put(a.substring(0, eq), a.substring(eq + 1));
        }
        String process = args.get("process");
        HistoryRecorder recorder = new HistoryRecorder(process);
        try (HaspClient client = LockWorker.connect(HaspConfig.builder().uri(args.get("uri")).build())) {
            FencedLock lock = client.getFencedLock(args.get("lock"));
            FencedResource resource = new FencedResource(args.get("resource"));
            Duration lease = Duration.ofMillis(Long.parseLong(args.get("lease")));
            if ("pause".equals(args.get("mode"))) {
                pause(client, lock, resource, recorder, lease, args.get("resource") + ":go");
            } else {
                boolean reentrant = "reentrant".equals(args.get("kind"));
                HaspLock plain = client.getLock(args.get("lock"));
                work(owner -> {
                    if (reentrant) {
                        reentrantRound(plain, recorder, lease, owner);
                    } else {
                        round(client, lock, resource, recorder, lease, owner);
                    }
                }, lock, recorder, Integer.parseInt(args.get("threads")), Long.parseLong(args.get("seconds")));
            }
            recorder.writeTo(Path.of(args.get("out")));
        }
        System.exit(0);
    }

    private static void work(Consumer<LockOwner> rounds, HaspLock lock, HistoryRecorder recorder, int threads,
            long seconds) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            LockOwner owner = lock.owner(t + 1);
            Thread worker = new Thread(() -> {
                while (System.nanoTime() - end < 0) {
                    rounds.accept(owner);
                }
            }, "history-worker-" + t);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        System.out.println("DONE " + recorder.operations().size());
        System.out.flush();
    }

    /** One acquire, write and release by {@code owner}, each recorded. */
    private static void round(HaspClient client, FencedLock lock, FencedResource resource, HistoryRecorder recorder,
            Duration lease, LockOwner owner) {
        String name = lock.getName();
        PendingOperation acquire = recorder.begin(owner.field(), name, OperationType.ACQUIRE);
        OptionalLong token;
        try {
            token = lock.tryLockAndGetTokenAsync(Duration.ofSeconds(2), lease, owner).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            acquire.unknown();   // the grant may have landed (it is rolled back, or runs out with its lease)
            return;
        }
        if (token.isEmpty()) {
            acquire.fail();
            return;
        }
        acquire.ok(token.getAsLong(), acquire.invokedNanos() + lease.toNanos());
        try {
            resource.write(client.commands(), token.getAsLong(), owner.field()).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            // the write's outcome does not matter to the lock's history
        }
        release(lock, recorder, owner);
    }

    /** One acquire, re-entry and two releases by {@code owner} on the reentrant lock, each recorded. */
    private static void reentrantRound(HaspLock lock, HistoryRecorder recorder, Duration lease, LockOwner owner) {
        String name = lock.getName();
        PendingOperation acquire = recorder.begin(owner.field(), name, OperationType.ACQUIRE);
        Boolean acquired;
        try {
            acquired = lock.tryLockAsync(Duration.ofSeconds(2), lease, owner).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            acquire.unknown();
            return;
        }
        if (!acquired) {
            acquire.fail();
            return;
        }
        acquire.ok(0, acquire.invokedNanos() + lease.toNanos());
        PendingOperation reenter = recorder.begin(owner.field(), name, OperationType.REENTER);
        try {
            if (lock.tryLockAsync(Duration.ZERO, lease, owner).get(30, TimeUnit.SECONDS)) {
                reenter.ok();
                // A re-entry sets the lease anew: the hold now lasts until at least the re-entry's call plus it.
                recorder.renewed(owner.field(), name, LockMode.EXCLUSIVE, reenter.invokedNanos() + lease.toNanos());
            } else {
                reenter.fail();
            }
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            reenter.unknown();
        }
        release(lock, recorder, owner);
        release(lock, recorder, owner);
    }

    private static void release(HaspLock lock, HistoryRecorder recorder, LockOwner owner) {
        PendingOperation release = recorder.begin(owner.field(), lock.getName(), OperationType.RELEASE);
        try {
            lock.unlockAsync(owner).get(30, TimeUnit.SECONDS);
            release.ok();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisException) {
                release.unknown();
            } else {
                release.fail();   // not held (any more): nothing was released
            }
        } catch (TimeoutException | InterruptedException e) {
            release.unknown();
        }
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
        release(lock, recorder, owner);
        HoldEnd end = ended.get(30, TimeUnit.SECONDS);
        System.out.println("RESUMED " + accepted + " " + end);
        System.out.flush();
    }
}
