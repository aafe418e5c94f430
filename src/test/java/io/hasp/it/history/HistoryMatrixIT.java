package io.hasp.it.history;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history matrix: every workload ({@link HistoryWorkload}) under every fault it is run with ({@link HistoryFault}),
 * each cell a test of its own whose worker JVMs record every acquire and release, the merged history checked for two
 * holders at once (more than the permits for the semaphore, a writer beside anyone for the read/write lock), releases
 * by non-owners, fenced tokens that do not grow and re-entries that change them, plus the cell's own expectations
 * (see {@link HistoryCells}). Every cell must hold except the master killed without replica acknowledgements, whose
 * violations are the hazard those acknowledgements exist for.
 *
 * <p>Each cell's workers run {@code hasp.history.seconds} seconds (2 by default, as CI runs it). The full matrix and
 * its report, {@code src/test/target/history-matrix.txt}:
 * <pre>
 * ./mvnw -B -pl src/test -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=HistoryMatrixIT -Dhasp.history.seconds=20
 * </pre>
 * ({@code -Dhasp.history.only=fair} runs only the cells whose name contains that.)
 * Histories are compared on {@code System.nanoTime}, the machine's monotonic clock on Linux, which every worker
 * shares: the matrix runs its JVMs on one machine.
 */
@ExtendWith(RedisServerExtension.class)
class HistoryMatrixIT {

    private static final List<String> ROWS = Collections.synchronizedList(new ArrayList<>());
    private static final int SECONDS = Integer.getInteger("hasp.history.seconds", 2);
    /** Runs only the cells whose name ({@code fair / none}) contains this, when set. */
    private static final String ONLY = System.getProperty("hasp.history.only", "");

    @TempDir
    static Path dir;

    @TestFactory
    Stream<DynamicTest> everyCellHoldsWhatItMust(RedisServer server) {
        HistoryCells cells = new HistoryCells(dir, SECONDS);
        Stream<HistoryCell> chosen = HistoryCell.matrix().stream().filter(cell -> cell.toString().contains(ONLY));
        return chosen.map(cell -> DynamicTest.dynamicTest(cell.toString(), () -> {
            HistoryCellResult result;
            try {
                result = cells.run(cell, server);
            } catch (Exception | AssertionError e) {
                ROWS.add(String.format(java.util.Locale.ROOT, "%-19s %-32s did not run to the end: %s",
                        cell.workload().label(), cell.fault().label(), e));
                throw e;
            }
            ROWS.add(result.row());
            System.out.println(result.details());
            assertTrue(result.passed(), result::details);
        }));
    }

    @AfterAll
    static void report() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# hasp history matrix: " + SECONDS + " s of workers per cell");
        lines.add(HistoryCellResult.header());
        lines.addAll(ROWS);
        Path report = Path.of("target", "history-matrix.txt");
        Files.createDirectories(report.getParent());
        Files.write(report, lines, StandardCharsets.UTF_8);
        System.out.println(String.join("\n", lines));
    }
}
