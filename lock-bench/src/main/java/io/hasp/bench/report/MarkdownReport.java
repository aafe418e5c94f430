package io.hasp.bench.report;

import io.hasp.bench.Catalog;
import io.hasp.bench.Measurement;
import io.hasp.bench.Row;
import io.hasp.bench.ServerCeiling;
import io.hasp.bench.fleet.FleetDriver;
import io.hasp.bench.fleet.FleetRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * Turns one run's results into the Markdown table (one line per benchmark; hasp, Redisson and Lettuce
 * side by side, the hasp/peer ratio, bytes allocated per operation and the share of the server's EVALSHA
 * ceiling) and the SVG chart of uncontended throughput against threads. Ratios only ever compare figures
 * of the same run.
 */
public final class MarkdownReport {

    static final String NONE = "–";

    private final List<Row> rows;
    private final Map<String, RunResult> results;
    private final ServerCeiling.Result ceiling;
    private final ServerCeiling.Result pairCeiling;
    private final List<FleetRuns> fleets;

    /**
     * Creates a report.
     *
     * @param rows the catalog's rows
     * @param results JMH results by {@link Measurement#key()}
     * @param ceiling the server's EVALSHA ceiling, possibly not measured
     * @param pairCeiling the server's ceiling on lock+unlock pairs, possibly not measured
     * @param fleets the cross-process runs, one entry per library and fleet shape, possibly none
     */
    public MarkdownReport(List<Row> rows, Map<String, RunResult> results, ServerCeiling.Result ceiling,
            ServerCeiling.Result pairCeiling, List<FleetRuns> fleets) {
        this.rows = rows;
        this.results = results;
        this.ceiling = ceiling;
        this.pairCeiling = pairCeiling;
        this.fleets = fleets;
    }

    /**
     * Renders the table with a heading that says where and how it was measured.
     *
     * @param heading lines put above the table (machine, versions, command)
     * @return the Markdown text
     */
    public String render(List<String> heading) {
        StringBuilder md = new StringBuilder();
        heading.forEach(line -> md.append(line).append('\n'));
        md.append('\n');
        md.append("| Benchmark | Threads | hasp | Redisson | Lettuce | hasp/peer | B/op hasp | B/op peer "
                + "| % of ceiling hasp / peer | Notes |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row row : rows) {
            RunResult hasp = result(row.hasp());
            RunResult peer = row.redisson() != null ? result(row.redisson()) : result(row.lettuce());
            if (hasp == null && peer == null) {
                continue;
            }
            RunResult redisson = result(row.redisson());
            RunResult lettuce = result(row.lettuce());
            String notes = "";
            if (row.hasp() != null && row.hasp().waitProfile()) {
                notes = "hand-offs to another thread: hasp " + percent(secondary(hasp, "handoff.share")) + ", Redisson "
                        + percent(secondary(peer, "handoff.share")) + " of acquisitions; overtakes of an earlier waiter: hasp "
                        + tenths(secondary(hasp, "overtake.share")) + ", Redisson " + tenths(secondary(peer, "overtake.share"));
            }
            md.append(line(row.title(), Integer.toString(row.threads()), score(hasp), score(redisson), score(lettuce),
                    ratio(score(hasp), score(peer)), bytes(hasp), bytes(peer),
                    ceilingShare(score(hasp), row.scriptsPerOp()) + " / " + ceilingShare(score(peer), row.scriptsPerOp())
                            + pairShare(row, pairCeiling, score(hasp), score(peer)),
                    notes));
            if (row.hasp() != null && row.hasp().waitProfile()) {
                for (String q : new String[] {"p50", "p99"}) {
                    double h = secondary(hasp, "wait." + q);
                    double p = secondary(peer, "wait." + q);
                    md.append(line("Contended, acquire wait " + q + " (us, lower is better)", Integer.toString(row.threads()),
                            h, row.redisson() != null ? p : Double.NaN, Double.NaN, ratio(h, p), NONE, NONE, NONE, ""));
                }
            }
        }
        for (FleetRuns[] pair : fleetPairs()) {
            FleetDriver.Result h = pair[0] == null ? null : pair[0].shown();
            FleetDriver.Result r = pair[1] == null ? null : pair[1].shown();
            FleetDriver.Result any = h != null ? h : r;
            String notes = "counter exact: hasp " + exact(h) + ", Redisson " + exact(r) + overrun(h) + overrun(r)
                    + (h == null ? "" : "; hasp: " + FleetDriver.describe(h))
                    + (r == null ? "" : "; Redisson: " + FleetDriver.describe(r))
                    + runs("hasp", pair[0]) + runs("Redisson", pair[1]);
            md.append(line("Cross-process: " + any.processes() + (any.processes() == 1 ? " JVM" : " JVMs")
                    + ", GET+SET of a counter under the lock "
                    + "(critical sections/s)", any.processes() + " x " + any.threads(),
                    h == null ? Double.NaN : h.perSecond(), r == null ? Double.NaN : r.perSecond(), Double.NaN,
                    ratio(h == null ? Double.NaN : h.perSecond(), r == null ? Double.NaN : r.perSecond()),
                    NONE, NONE, NONE, notes));
        }
        md.append('\n');
        md.append("hasp/peer: hasp's figure divided by Redisson's (Lettuce's on the raw EVALSHA and GET rows). "
                + "B/op: bytes allocated per operation by the whole benchmark JVM (JMH `-prof gc`, "
                + "`gc.alloc.rate.norm`). % of ceiling: Lua script calls per second (operations x scripts per "
                + "operation: 2 per lock+unlock pair, 1 per failed tryLock or raw EVALSHA) over the server's EVALSHA "
                + "ceiling measured in the same run; on the rows of reentrant lock+unlock pairs, also pairs per "
                + "second over the server's ceiling on such pairs (both scripts in one call, a new lock each time), "
                + "in brackets.\n");
        return md.toString();
    }

    /**
     * Renders the chart of uncontended pairs/s against threads, hasp and Redisson, both lease modes.
     *
     * @return an SVG document
     */
    public String chart() {
        List<String> categories = new ArrayList<>();
        for (int threads : Catalog.UNCONTENDED_THREADS) {
            categories.add(Integer.toString(threads));
        }
        SvgChart chart = new SvgChart("Uncontended lock+unlock pairs/s (higher is better)", "threads", "pairs/s",
                categories);
        chart.series("hasp, watchdog", "#1f77b4", false, series("watchdog", true));
        chart.series("hasp, fixed lease", "#1f77b4", true, series("lease", true));
        chart.series("Redisson, watchdog", "#d62728", false, series("watchdog", false));
        chart.series("Redisson, fixed lease", "#d62728", true, series("lease", false));
        return chart.render();
    }

    private double[] series(String name, boolean hasp) {
        double[] values = new double[Catalog.UNCONTENDED_THREADS.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = Double.NaN;
            for (Row row : rows) {
                if (name.equals(row.chartSeries()) && row.threads() == Catalog.UNCONTENDED_THREADS[i]) {
                    values[i] = score(result(hasp ? row.hasp() : row.redisson()));
                }
            }
        }
        return values;
    }

    private List<FleetRuns[]> fleetPairs() {
        List<FleetRuns[]> pairs = new ArrayList<>();
        for (FleetRuns fleet : fleets) {
            FleetDriver.Result shown = fleet.shown();
            FleetRuns[] pair = null;
            for (FleetRuns[] p : pairs) {
                FleetDriver.Result any = (p[0] != null ? p[0] : p[1]).shown();
                if (any.processes() == shown.processes() && any.threads() == shown.threads()) {
                    pair = p;
                }
            }
            if (pair == null) {
                pair = new FleetRuns[2];
                pairs.add(pair);
            }
            pair["hasp".equals(shown.library()) ? 0 : 1] = fleet;
        }
        return pairs;
    }

    private static String runs(String library, FleetRuns fleet) {
        return fleet == null || fleet.runs().size() < 2 ? "" : "; " + library + " runs: " + fleet.rates();
    }

    private RunResult result(Measurement m) {
        return m == null ? null : results.get(m.key());
    }

    static double score(RunResult result) {
        return result == null ? Double.NaN : median(result.getPrimaryResult().getStatistics());
    }

    /**
     * Returns the median of a result's measured iterations (over all forks): one slow or fast iteration on
     * a shared machine moves it less than it moves JMH's mean.
     *
     * @param iterations a JMH result's statistics ({@code Result.getStatistics()})
     * @return the median iteration score, or NaN when nothing was measured
     */
    public static double median(Statistics iterations) {
        return iterations.getN() == 0 ? Double.NaN : iterations.getPercentile(50);
    }

    /**
     * Returns a secondary result's value: the mean of the values the iterations reported, over the
     * iterations that reported it. Neither JMH's score nor the statistics of the run's merged
     * secondary result: both spread a value reported once per fork over all of the fork's
     * iterations, and the wait profiler reports its percentiles and hand-off share once, after the
     * last measured iteration (they came out divided by the number of iterations).
     *
     * @param result a result, or null
     * @param label the secondary result's label, e.g. {@code wait.p50}
     * @return its value, or NaN when it is missing
     */
    static double secondary(RunResult result, String label) {
        if (result == null) {
            return Double.NaN;
        }
        List<Map<String, Result>> iterations = new ArrayList<>();
        for (BenchmarkResult fork : result.getBenchmarkResults()) {
            for (IterationResult iteration : fork.getIterationResults()) {
                iterations.add(iteration.getSecondaryResults());
            }
        }
        return reported(iterations, label);
    }

    /**
     * The mean of {@code label}'s values over the iterations that reported it, NaN when none did.
     *
     * @param iterations each iteration's secondary results, by label
     */
    static double reported(List<Map<String, Result>> iterations, String label) {
        double sum = 0;
        int count = 0;
        for (Map<String, Result> iteration : iterations) {
            Result value = iteration.get(label);
            if (value != null) {
                sum += value.getScore();
                count++;
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    private static String bytes(RunResult result) {
        double value = secondary(result, "gc.alloc.rate.norm");
        return Double.isNaN(value) ? NONE : String.format(Locale.ROOT, "%,.0f", value);
    }

    private String ceilingShare(double score, double scriptsPerOp) {
        if (!ceiling.measured() || scriptsPerOp <= 0 || Double.isNaN(score)) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%.0f%%", 100 * score * scriptsPerOp / ceiling.requestsPerSecond());
    }

    /**
     * A pair row's share of the server's pair ceiling, as the "% of ceiling" cell's suffix.
     *
     * @return {@code " (h% / p% of pairs)"}, or empty for other rows or without a pair ceiling
     */
    static String pairShare(Row row, ServerCeiling.Result pairCeiling, double hasp, double peer) {
        if (!row.lockPairs() || !pairCeiling.measured()) {
            return "";
        }
        return " (" + share(hasp, pairCeiling.requestsPerSecond()) + " / " + share(peer, pairCeiling.requestsPerSecond())
                + " of pairs)";
    }

    private static String share(double score, double ceilingPerSecond) {
        return Double.isNaN(score) ? NONE : String.format(Locale.ROOT, "%.0f%%", 100 * score / ceilingPerSecond);
    }

    static String ratio(double hasp, double peer) {
        if (Double.isNaN(hasp) || Double.isNaN(peer) || peer <= 0) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%.2fx", hasp / peer);
    }

    private static String percent(double value) {
        return Double.isNaN(value) ? NONE : String.format(Locale.ROOT, "%.0f%%", value);
    }

    private static String tenths(double percent) {
        return Double.isNaN(percent) ? NONE : String.format(Locale.ROOT, "%.1f%%", percent);
    }

    private static String exact(FleetDriver.Result fleet) {
        if (fleet == null) {
            return NONE;
        }
        return fleet.exact() ? "yes (" + fleet.counter() + ")" : "NO (" + fleet.counter() + " of " + fleet.expected() + ")";
    }

    private static String overrun(FleetDriver.Result fleet) {
        if (fleet == null || !fleet.overran()) {
            return "";
        }
        return String.format(Locale.ROOT, "; %s's slowest process ran %.1f s for a %d s plan (a waiter was stuck past "
                + "the deadline)", fleet.library(), fleet.seconds(), fleet.plannedSeconds());
    }

    private static String line(String title, String threads, double hasp, double redisson, double lettuce, String ratio,
            String bytesHasp, String bytesPeer, String ceiling, String notes) {
        return "| " + title + " | " + threads + " | " + number(hasp) + " | " + number(redisson) + " | " + number(lettuce)
                + " | " + ratio + " | " + bytesHasp + " | " + bytesPeer + " | " + ceiling + " | " + notes + " |\n";
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return NONE;
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
