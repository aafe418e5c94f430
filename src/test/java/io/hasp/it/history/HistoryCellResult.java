package io.hasp.it.history;

import io.hasp.testing.history.CheckResult;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.Outcome;
import java.util.List;
import java.util.Locale;

/**
 * What one cell of the history matrix found.
 *
 * @param cell the workload and fault
 * @param check the history checker's result
 * @param problems the cell's own expectations that were not met (none when it ran as it should)
 * @param note what else the cell measured, for the report
 */
record HistoryCellResult(HistoryCell cell, CheckResult check, List<String> problems, String note) {

    HistoryCellResult {
        problems = List.copyOf(problems);
    }

    HistoryCellResult withNote(String more) {
        return new HistoryCellResult(cell, check, problems, note.isEmpty() ? more : note + "; " + more);
    }

    /** Whether the cell shows what it must: no violation where none may be, and its own expectations met. */
    boolean passed() {
        return problems.isEmpty() && (check.isValid() || !cell.fault().mustHold());
    }

    /** The header of {@link #row()}. */
    static String header() {
        return String.format(Locale.ROOT, "%-19s %-32s %9s %7s %8s %10s %11s  %s", "workload", "fault", "operations",
                "grants", "unknown", "violations", "overlap us", "verdict; notes");
    }

    /** One line of the report. */
    String row() {
        int unknown = 0;
        for (OperationType type : OperationType.values()) {
            unknown += check.operationCount(type, Outcome.UNKNOWN);
        }
        String verdict = passed() ? (check.isValid() ? "ok" : "violations, as expected without acks") : "FAILED";
        String notes = note.isEmpty() ? "" : "; " + note;
        return String.format(Locale.ROOT, "%-19s %-32s %9d %7d %8d %10d %11d  %s%s", cell.workload().label(),
                cell.fault().label(), check.operationCount(), check.operationCount(OperationType.ACQUIRE, Outcome.OK),
                unknown, check.violations().size(), check.worstOverlapMicros(), verdict, notes);
    }

    /** Everything a failure needs to be understood: the row, the problems and the checker's report. */
    String details() {
        return row() + "\n" + String.join("\n", problems) + "\n" + check.report();
    }
}
