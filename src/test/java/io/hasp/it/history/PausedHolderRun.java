package io.hasp.it.history;

import io.hasp.it.lock.ChildJvm;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.history.History;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The paused-holder cell: a fenced-lock holder stopped with SIGSTOP for at least twice its lease while two other JVMs
 * take the lock after its lease ran out, then resumed. Its late write must be refused by the {@link FencedResource}, it must learn that its
 * hold ended ({@code EXPIRED} or {@code LOST}), and the merged history must show no overlap.
 */
final class PausedHolderRun {

    private final HistoryCells cells;
    private final RedisServer server;
    private final String name;

    PausedHolderRun(HistoryCells cells, RedisServer server, String name) {
        this.cells = cells;
        this.server = server;
        this.name = name;
    }

    HistoryCellResult run(HistoryCell cell) throws Exception {
        FencedResource resource = new FencedResource(name + ":resource");
        ChildJvm paused = ChildJvm.start(ChildJvm.currentJava(), HistoryWorker.class, "mode=pause",
                "uri=" + server.uri(), "lock=" + name, "resource=" + name + ":resource", "process=paused",
                "threads=1", "seconds=0", "lease=" + HistoryCells.LEASE.toMillis(),
                "out=" + cells.historyFile("paused"));
        List<ChildJvm> others = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (RedisProbe probe = server.probe()) {
            String locked = paused.awaitLine("LOCKED ", Duration.ofMinutes(1));
            if (locked == null) {
                throw new IllegalStateException("the holder to pause did not lock:\n" + paused.output());
            }
            signal("STOP", paused.pid());
            long stoppedAt = System.nanoTime();
            // The others work on while it is stopped; its lease runs out, and they take the lock after it.
            cells.workers(others, cell, server.uri(), name, -1, 0, null);
            if (!Conditions.await(Duration.ofSeconds(30),
                    () -> probe.call("LLEN", resource.acceptedKey()) instanceof Long accepted && accepted >= 2)) {
                problems.add("no holder after the paused one wrote");
            }
            // Stopped for at least twice its lease, while the others work on.
            Conditions.await(Duration.ofSeconds(30),
                    () -> System.nanoTime() - stoppedAt >= 2 * HistoryCells.LEASE.toNanos());
            probe.call("RPUSH", name + ":resource:go", "1");
            signal("CONT", paused.pid());
            String resumed = paused.awaitLine("RESUMED ", Duration.ofMinutes(1));
            if (resumed == null || !resumed.startsWith("RESUMED false ")) {
                problems.add("the paused holder's late write was not refused: " + resumed + "\n" + paused.output());
            } else if (!resumed.endsWith(" EXPIRED") && !resumed.endsWith(" LOST")) {
                problems.add("the paused holder did not learn its hold ended: " + resumed);
            }
            if (paused.awaitExit(Duration.ofSeconds(30)) != 0) {
                throw new IllegalStateException("the paused holder failed:\n" + paused.output());
            }
            List<Path> files = new ArrayList<>(List.of(cells.historyFile("paused")));
            Path merged = cells.historyFile("others");
            cells.histories(others).writeTo(merged);
            files.add(merged);
            // The paused holder's refusal (another holder whose lease ran out before its write may be refused too).
            Object refused = probe.call("GET", resource.refusedKey());
            if (refused == null) {
                problems.add("no write was refused");
            }
            return cells.checked(cell, History.read(files), problems).withNote("late write refused: "
                    + (resumed != null && resumed.startsWith("RESUMED false ")) + ", " + (resumed == null ? "no end"
                    : resumed.substring(resumed.lastIndexOf(' ') + 1)));
        } finally {
            paused.close();
            others.forEach(ChildJvm::close);
        }
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
        }
    }
}
