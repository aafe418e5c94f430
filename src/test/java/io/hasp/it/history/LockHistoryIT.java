package io.hasp.it.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.it.lock.ChildJvm;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.hasp.testing.TcpProxy;
import io.hasp.testing.history.CheckResult;
import io.hasp.testing.history.History;
import io.hasp.testing.history.HistoryChecker;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fenced and the reentrant lock checked on recorded histories: worker JVMs record every acquire and release with its invocation and
 * completion times and outcome, and {@link HistoryChecker} looks for two holders at once (a holder counts on its
 * hold from its grant until the earliest of its release and the end of its lease), a release by a non-owner, and a
 * token that does not grow, and (for the reentrant lock, whose holders re-enter) re-entries that change nothing. Each
 * fault is a run of its own: none, links cut, replies swallowed, and a holder paused with SIGSTOP for longer than its
 * lease, whose late write a {@link FencedResource} must refuse. The histories are compared on
 * {@code System.nanoTime}, the machine's monotonic clock on Linux, which every worker shares.
 */
@ExtendWith(RedisServerExtension.class)
class LockHistoryIT {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    private static String name(TestInfo test) {
        return "history:" + test.getTestMethod().orElseThrow().getName();
    }

    private List<ChildJvm> workers(String uri, String name, int processes, int threads, int seconds) {
        return workers("fenced", uri, name, processes, threads, seconds);
    }

    private List<ChildJvm> workers(String kind, String uri, String name, int processes, int threads, int seconds) {
        List<ChildJvm> jvms = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            jvms.add(ChildJvm.start(ChildJvm.currentJava(), HistoryWorker.class, "mode=work", "kind=" + kind,
                    "uri=" + uri,
                    "lock=" + name, "resource=" + name + ":resource", "process=p" + p, "threads=" + threads,
                    "seconds=" + seconds, "lease=" + LEASE.toMillis(), "out=" + dir.resolve("p" + p + ".history")));
        }
        return jvms;
    }

    /** Waits for every worker's history and reads them as one. */
    private History histories(List<ChildJvm> jvms) throws InterruptedException, IOException {
        List<Path> files = new ArrayList<>();
        for (int p = 0; p < jvms.size(); p++) {
            ChildJvm jvm = jvms.get(p);
            assertNotNull(jvm.awaitLine("DONE ", Duration.ofMinutes(2)), "a worker did not finish:\n" + jvm.output());
            assertEquals(0, jvm.awaitExit(Duration.ofSeconds(30)), jvm.output());
            files.add(dir.resolve("p" + p + ".history"));
        }
        return History.read(files);
    }

    private static CheckResult checked(History history) {
        CheckResult result = HistoryChecker.mutex().check(history);
        System.out.println(result.report());
        return result;
    }

    @Test
    void threeProcessesLeaveAHistoryWithNoOverlapAndGrowingTokens(TestInfo test, RedisServer server)
            throws Exception {
        String name = name(test);
        List<ChildJvm> jvms = workers(server.uri(), name, 3, 2, 3);
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            CheckResult result = checked(histories(jvms));
            result.assertValid();
            assertTrue(result.operationCount(OperationType.ACQUIRE, Outcome.OK) >= 100,
                    "too few grants to check: " + result);
            assertEquals(null, probe.call("GET", new FencedResource(name + ":resource").refusedKey()),
                    "no write was refused");
        } finally {
            jvms.forEach(ChildJvm::close);
        }
    }

    @Test
    void linksCutEveryFewHundredMillisecondsLeaveNoOverlap(TestInfo test, RedisServer server) throws Exception {
        String name = name(test);
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        try (TcpProxy proxy = TcpProxy.start(server.port())) {
            List<ChildJvm> jvms = workers(proxy.uri(), name, 2, 2, 4);
            try {
                AtomicInteger cuts = new AtomicInteger();
                chaos.scheduleWithFixedDelay(() -> {
                    if (proxy.connectionCount() > 0) {
                        proxy.cutAll();
                        cuts.incrementAndGet();
                    }
                }, 300, 300, TimeUnit.MILLISECONDS);
                CheckResult result = checked(histories(jvms));
                result.assertValid();
                assertTrue(cuts.get() >= 5, "links were cut while the history was recorded: " + cuts + " times");
                assertTrue(result.operationCount(OperationType.ACQUIRE, Outcome.OK) >= 20,
                        "too few grants to check: " + result);
            } finally {
                chaos.shutdownNow();
                jvms.forEach(ChildJvm::close);
            }
        }
    }

    @Test
    void reentrantHoldsWithReEntriesLeaveAHistoryWithNoOverlap(TestInfo test, RedisServer server) throws Exception {
        List<ChildJvm> jvms = workers("reentrant", server.uri(), name(test), 3, 2, 3);
        try {
            CheckResult result = checked(histories(jvms));
            result.assertValid();
            assertTrue(result.operationCount(OperationType.REENTER, Outcome.OK) >= 100,
                    "too few re-entries to check: " + result);
        } finally {
            jvms.forEach(ChildJvm::close);
        }
    }

    @Test
    void repliesSwallowedEveryFewHundredMillisecondsLeaveNoOverlap(TestInfo test, RedisServer server)
            throws Exception {
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        try (TcpProxy proxy = TcpProxy.start(server.port())) {
            List<ChildJvm> jvms = workers("reentrant", proxy.uri(), name(test), 2, 2, 4);
            try {
                AtomicInteger drops = new AtomicInteger();
                chaos.scheduleWithFixedDelay(() -> {
                    if (proxy.connectionCount() > 0) {
                        proxy.dropNextReplyAndCut();   // the server ran the command; its answer is lost
                        drops.incrementAndGet();
                    }
                }, 200, 200, TimeUnit.MILLISECONDS);
                CheckResult result = checked(histories(jvms));
                result.assertValid();
                assertTrue(drops.get() >= 5, "replies were swallowed while the history was recorded: " + drops);
                assertTrue(result.operationCount(OperationType.ACQUIRE, Outcome.OK) >= 20,
                        "too few grants to check: " + result);
            } finally {
                chaos.shutdownNow();
                jvms.forEach(ChildJvm::close);
            }
        }
    }

    @Test
    void aHolderPausedForTwiceItsLeaseIsFencedOffWhenItRunsAgain(TestInfo test, RedisServer server)
            throws Exception {
        String name = name(test);
        FencedResource resource = new FencedResource(name + ":resource");
        ChildJvm paused = ChildJvm.start(ChildJvm.currentJava(), HistoryWorker.class, "mode=pause",
                "uri=" + server.uri(), "lock=" + name, "resource=" + name + ":resource", "process=paused",
                "threads=1", "seconds=0", "lease=" + LEASE.toMillis(), "out=" + dir.resolve("paused.history"));
        List<ChildJvm> others = new ArrayList<>();
        try (RedisProbe probe = RedisProbe.connect(server.port())) {
            String locked = paused.awaitLine("LOCKED ", Duration.ofMinutes(1));
            assertNotNull(locked, paused.output());
            signal("STOP", paused.pid());
            // The others work on while it is stopped; its lease runs out, and they take the lock after it.
            others = workers(server.uri(), name, 2, 1, 4);
            assertTrue(Conditions.await(Duration.ofSeconds(30),
                    () -> probe.call("LLEN", resource.acceptedKey()) instanceof Long accepted && accepted >= 2),
                    "a holder after the paused one wrote");
            probe.call("RPUSH", name + ":resource:go", "1");
            signal("CONT", paused.pid());
            String resumed = paused.awaitLine("RESUMED ", Duration.ofMinutes(1));
            assertNotNull(resumed, paused.output());
            assertTrue(resumed.startsWith("RESUMED false "), "its late write was refused: " + resumed);
            assertTrue(resumed.endsWith(" EXPIRED") || resumed.endsWith(" LOST"),
                    "it learns its hold ended: " + resumed);
            assertEquals(0, paused.awaitExit(Duration.ofSeconds(30)), paused.output());
            List<Path> files = new ArrayList<>(List.of(dir.resolve("paused.history")));
            History rest = histories(others);
            Path merged = dir.resolve("others.history");
            rest.writeTo(merged);
            files.add(merged);
            CheckResult result = checked(History.read(files));
            result.assertValid();
            assertEquals("1", probe.call("GET", resource.refusedKey()), "exactly the paused holder's write refused");
        } finally {
            paused.close();
            others.forEach(ChildJvm::close);
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + pid);
    }
}
