package io.hasp.bench.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The repeated runs of one fleet (one library, one shape of processes x threads) and the run the report
 * shows for them. Fleets are single processes on shared cores, so one run can be far off; the report shows
 * the run with the median rate. A run whose counter came out wrong, or whose slowest process overran its
 * deadline, is never hidden behind a median: the first such run is shown instead.
 *
 * @param runs every run, in the order they ran; at least one
 */
public record FleetRuns(List<FleetDriver.Result> runs) {

    /**
     * @param runs every run, in the order they ran; at least one
     * @throws IllegalArgumentException when there is no run, or the runs are of different fleets
     */
    public FleetRuns {
        if (runs == null || runs.isEmpty()) {
            throw new IllegalArgumentException("runs: none (expected: at least one fleet result)");
        }
        FleetDriver.Result first = runs.get(0);
        for (FleetDriver.Result run : runs) {
            if (!run.library().equals(first.library()) || run.processes() != first.processes()
                    || run.threads() != first.threads()) {
                throw new IllegalArgumentException("runs: " + describe(run) + " mixed with " + describe(first)
                        + " (expected: runs of one fleet)");
            }
        }
        runs = List.copyOf(runs);
    }

    /**
     * Returns the run the report shows: the first one that lost updates or overran, else the one with the
     * median rate (the lower of the two middle ones for an even number of runs).
     *
     * @return the run shown
     */
    public FleetDriver.Result shown() {
        for (FleetDriver.Result run : runs) {
            if (!run.exact() || run.overran()) {
                return run;
            }
        }
        List<FleetDriver.Result> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(FleetDriver.Result::perSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /**
     * Returns every run's rate, in the order they ran.
     *
     * @return e.g. {@code "4,082 / 3,990 / 4,210"}
     */
    public String rates() {
        return runs.stream().map(run -> String.format(Locale.ROOT, "%,.0f", run.perSecond()))
                .collect(Collectors.joining(" / "));
    }

    private static String describe(FleetDriver.Result run) {
        return run.library() + " " + run.processes() + " x " + run.threads();
    }
}
