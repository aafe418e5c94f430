package io.hasp.it.history;

import io.hasp.it.lock.ChildJvm;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import io.hasp.testing.history.CheckResult;
import io.hasp.testing.history.History;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the cells of the history matrix: worker JVMs ({@link HistoryWorker}) record a workload's operations while a
 * fault is made, and the merged history is checked. A cell's own expectations that the history checker does not
 * cover (enough grants to judge, the fault made often enough, the paused holder fenced off, the fair lock's order)
 * come back as {@link HistoryCellResult#problems()}.
 */
final class HistoryCells {

    /** Every holder's lease. */
    static final Duration LEASE = Duration.ofSeconds(1);
    /** How long holders of the workloads that keep their hold keep it. */
    private static final Duration HOLD = Duration.ofMillis(20);
    /** How long fair-lock holders keep it: long enough for queues that make the order check meaningful. */
    private static final Duration FAIR_HOLD = Duration.ofMillis(80);
    /**
     * How much earlier a fair-lock waiter must have asked to be owed the earlier grant: the most a call may take to
     * reach the server on a loaded machine (a pause of the calling JVM included).
     */
    private static final Duration QUEUE_MARGIN = Duration.ofMillis(250);
    private static final Duration WORKER_DEADLINE = Duration.ofMinutes(2);

    private final Path dir;
    private final int seconds;

    /**
     * @param dir where the workers write their histories
     * @param seconds how long the workers of one cell run
     */
    HistoryCells(Path dir, int seconds) {
        this.dir = dir;
        this.seconds = seconds;
    }

    /** Runs {@code cell} against {@code server} (the failover cells start servers of their own). */
    HistoryCellResult run(HistoryCell cell, RedisServer server) throws Exception {
        String name = "history:" + cell.workload().label() + ":" + cell.fault().label();
        return switch (cell.fault()) {
            case NONE, CLIENT_RESTARTS -> plain(cell, server.uri(), name);
            case LINK_CUTS -> throughProxy(cell, server, name, TcpProxy::cutAll, 300);
            case SWALLOWED_REPLIES -> throughProxy(cell, server, name, TcpProxy::dropNextReplyAndCut, 200);
            case PAUSED_HOLDER -> new PausedHolderRun(this, server, name).run(cell);
            case MASTER_KILLED, SENTINEL_MASTER_KILLED, CLUSTER_MASTER_KILLED ->
                    new FailoverRun(this, name, false).run(cell);
            case MASTER_KILLED_WITH_ACKS, SENTINEL_MASTER_KILLED_WITH_ACKS, CLUSTER_MASTER_KILLED_WITH_ACKS ->
                    new FailoverRun(this, name, true).run(cell);
        };
    }

    private HistoryCellResult plain(HistoryCell cell, String uri, String name) throws Exception {
        List<ChildJvm> jvms = new ArrayList<>();
        try {
            workers(jvms, cell, uri, name, cell.fault() == HistoryFault.CLIENT_RESTARTS ? 0 : -1, 0, null);
            History history = histories(jvms);
            List<String> problems = new ArrayList<>();
            if (cell.fault() != HistoryFault.CLIENT_RESTARTS) {
                return checked(cell, history, problems);
            }
            String restarts = jvms.get(0).awaitLine("RESTARTS ", Duration.ZERO);
            if (restarts == null || restarts.equals("RESTARTS 0")) {
                problems.add("no client was closed while it held the lock: " + restarts);
            }
            return checked(cell, history, problems).withNote("clients closed mid-hold: "
                    + (restarts == null ? 0 : restarts.substring("RESTARTS ".length())));
        } finally {
            jvms.forEach(ChildJvm::close);
        }
    }

    private HistoryCellResult throughProxy(HistoryCell cell, RedisServer server, String name,
            java.util.function.Consumer<TcpProxy> fault, long everyMillis) throws Exception {
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        try (TcpProxy proxy = TcpProxy.start(server.port())) {
            List<ChildJvm> jvms = new ArrayList<>();
            try {
                workers(jvms, cell, proxy.uri(), name, -1, 0, null);
                AtomicInteger faults = new AtomicInteger();
                chaos.scheduleWithFixedDelay(() -> {
                    if (proxy.connectionCount() > 0) {
                        fault.accept(proxy);
                        faults.incrementAndGet();
                    }
                }, everyMillis, everyMillis, TimeUnit.MILLISECONDS);
                History history = histories(jvms);
                List<String> problems = new ArrayList<>();
                if (faults.get() < 3) {
                    problems.add("the fault was made " + faults + " times while the history was recorded");
                }
                return checked(cell, history, problems).withNote(cell.fault().label() + ": " + faults);
            } finally {
                chaos.shutdownNow();
                jvms.forEach(ChildJvm::close);
            }
        }
    }

    /**
     * Starts the worker JVMs of {@code cell} into {@code jvms} (which the caller closes, also when this throws): three
     * of two threads each without a fault and with restarts, two of two under the other faults, each running for the
     * cell's seconds.
     *
     * @param restartsIn the index of the JVM whose extra client restarts mid-hold, or -1
     * @param acksMillis how long each grant waits for a replica's confirmation, 0 for none
     * @param stop when not null, the workers also go on until this file exists
     */
    void workers(List<ChildJvm> jvms, HistoryCell cell, String uri, String name, int restartsIn, long acksMillis,
            Path stop) {
        int processes = cell.fault() == HistoryFault.NONE || cell.fault() == HistoryFault.CLIENT_RESTARTS ? 3 : 2;
        boolean keepsHold = cell.workload() != HistoryWorkload.REENTRANT && cell.workload() != HistoryWorkload.FENCED;
        Duration hold = !keepsHold ? Duration.ZERO : cell.workload() == HistoryWorkload.FAIR ? FAIR_HOLD : HOLD;
        for (int p = 0; p < processes; p++) {
            jvms.add(ChildJvm.start(ChildJvm.currentJava(), HistoryWorker.class, "mode=work",
                    "workload=" + cell.workload().label(), "uri=" + uri, "lock=" + name,
                    "resource=" + name + ":resource", "process=p" + p, "threads=2", "seconds=" + seconds,
                    "stop=" + (stop == null ? "" : stop),
                    "lease=" + LEASE.toMillis(), "hold=" + hold.toMillis(), "acks=" + acksMillis,
                    "restarts=" + (p == restartsIn), "out=" + historyFile("p" + p)));
        }
        if (cell.workload() == HistoryWorkload.SEMAPHORE || cell.workload() == HistoryWorkload.EXPIRABLE_SEMAPHORE) {
            setPermits(cell.workload(), uri, name);
        }
    }

    /** Sets the semaphore's permits once, before its workers' first acquire is answered (they wait up to 2 s). */
    private static void setPermits(HistoryWorkload workload, String uri, String name) {
        try (io.hasp.HaspClient setter = io.hasp.HaspClient.create(uri)) {
            if (workload == HistoryWorkload.SEMAPHORE) {
                setter.getSemaphore(name).trySetPermits(workload.capacity());
            } else {
                setter.getPermitExpirableSemaphore(name).trySetPermits(workload.capacity());
            }
        }
    }

    Path historyFile(String process) {
        return dir.resolve(process + ".history");
    }

    /** Waits for every worker's history and reads them as one. */
    History histories(List<ChildJvm> jvms) throws InterruptedException, IOException {
        List<Path> files = new ArrayList<>();
        for (int p = 0; p < jvms.size(); p++) {
            ChildJvm jvm = jvms.get(p);
            if (jvm.awaitLine("DONE ", WORKER_DEADLINE) == null || jvm.awaitExit(Duration.ofSeconds(30)) != 0) {
                throw new IllegalStateException("a worker did not finish:\n" + jvm.output());
            }
            files.add(historyFile("p" + p));
        }
        return History.read(files);
    }

    /** Checks {@code history} and the cell's expectations besides the checker's. */
    HistoryCellResult checked(HistoryCell cell, History history, List<String> problems) {
        CheckResult result = cell.workload().checker().check(history);
        int grants = result.operationCount(OperationType.ACQUIRE, Outcome.OK);
        if (grants < 10) {
            problems.add("too few grants to judge: " + grants);
        }
        String note = "";
        if (cell.workload() == HistoryWorkload.FAIR && cell.fault() == HistoryFault.NONE) {
            long margin = QUEUE_MARGIN.toNanos();
            History warm = QueueOrder.withoutFirstHolds(history);
            long compared = QueueOrder.comparedPairs(warm, margin);
            problems.addAll(QueueOrder.overtakings(warm, margin, 5));
            if (compared < 10) {
                problems.add("too few waiters queued at once to judge the order: " + compared + " pairs");
            }
            note = "queue order: " + compared + " pairs compared";
        }
        if (cell.workload() == HistoryWorkload.REENTRANT && cell.fault() == HistoryFault.NONE
                && result.operationCount(OperationType.REENTER, Outcome.OK) < 10) {
            problems.add("too few re-entries to judge");
        }
        return new HistoryCellResult(cell, result, problems, note);
    }
}
