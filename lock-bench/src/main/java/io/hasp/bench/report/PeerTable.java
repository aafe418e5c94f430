package io.hasp.bench.report;

import io.hasp.bench.Measurement;
import io.hasp.bench.PeerRow;
import io.hasp.bench.fleet.FleetDriver;
import io.hasp.bench.fleet.FleetRuns;
import io.hasp.bench.peer.Peer;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * The Markdown table of hasp against the locks users pick instead: one column per {@link Peer}, each cell
 * the peer's figure with hasp's advantage over it, and a line saying why a peer was skipped (e.g. no MariaDB
 * server on the machine). Ratios only compare figures of the same run.
 */
public final class PeerTable {

    private final List<PeerRow> rows;
    private final Map<String, RunResult> results;
    private final Map<Peer, String> skipped;
    private final FleetRuns haspFleet;
    private final Map<Peer, FleetRuns> peerFleets = new EnumMap<>(Peer.class);
    private final boolean spread;

    /**
     * Creates the table.
     *
     * @param rows the catalog's peer rows
     * @param results JMH results by {@link Measurement#key()}
     * @param skipped why each skipped peer was skipped
     * @param haspFleet hasp's runs of the fleet shape the peers ran, or null
     * @param peerFleets the peers' fleet runs (library named by {@link Peer#method()}), possibly none
     * @param spread whether to list each figure's lowest and highest measured iteration (and fleet run)
     *     under the table, as the full profile does
     */
    public PeerTable(List<PeerRow> rows, Map<String, RunResult> results, Map<Peer, String> skipped, FleetRuns haspFleet,
            List<FleetRuns> peerFleets, boolean spread) {
        this.rows = rows;
        this.results = results;
        this.skipped = skipped;
        this.haspFleet = haspFleet;
        this.spread = spread;
        for (FleetRuns runs : peerFleets) {
            this.peerFleets.put(Peer.ofMethod(runs.shown().library()), runs);
        }
    }

    /**
     * Renders the section, or nothing when no peer was measured or skipped in this run.
     *
     * @return Markdown, possibly empty
     */
    public String render() {
        boolean any = !skipped.isEmpty() || !peerFleets.isEmpty() || rows.stream().anyMatch(row -> row.peers().values().stream()
                .anyMatch(m -> results.containsKey(m.key())));
        if (!any) {
            return "";
        }
        StringBuilder md = new StringBuilder("\n## hasp against the locks users pick instead\n\n| Benchmark | Threads | hasp |");
        StringBuilder rule = new StringBuilder("|---|---:|---:|");
        for (Peer peer : Peer.values()) {
            md.append(' ').append(peer.label()).append(" |");
            rule.append("---:|");
        }
        md.append('\n').append(rule).append('\n');
        for (PeerRow row : rows) {
            RunResult hasp = results.get(row.hasp().key());
            line(md, row.title(), Integer.toString(row.threads()), MarkdownReport.score(hasp),
                    peer -> MarkdownReport.score(result(row, peer)), false);
            if (row.hasp().waitProfile()) {
                line(md, "Contended, acquisitions that changed hands (%)", Integer.toString(row.threads()),
                        MarkdownReport.secondary(hasp, "handoff.share"),
                        peer -> MarkdownReport.secondary(result(row, peer), "handoff.share"), NO_RATIO);
                for (String q : new String[] {"p50", "p99"}) {
                    line(md, "Contended, acquire wait " + q + " (us, lower is better)", Integer.toString(row.threads()),
                            MarkdownReport.secondary(hasp, "wait." + q),
                            peer -> MarkdownReport.secondary(result(row, peer), "wait." + q), true);
                }
            }
        }
        if (haspFleet != null && !peerFleets.isEmpty()) {
            FleetDriver.Result h = haspFleet.shown();
            line(md, "Cross-process: " + h.processes() + " JVMs, GET+SET of a Redis counter under the lock"
                    + " (critical sections/s)", h.processes() + " x " + h.threads(), h.perSecond(),
                    peer -> peerFleets.containsKey(peer) ? peerFleets.get(peer).shown().perSecond() : Double.NaN, false);
            md.append("\nCounter exact after the cross-process run: hasp ").append(exact(h));
            peerFleets.forEach((peer, runs) -> md.append(", ").append(peer.label()).append(' ')
                    .append(exact(runs.shown())));
            md.append(".\n");
        }
        md.append('\n').append("In parentheses: hasp's advantage over that lock in this run, above 1 when hasp is better"
                + " (hasp's rate over the peer's; for waits, the peer's wait over hasp's). hasp is its watchdog lock"
                + " (`lock()`), as in the main table. The database row lock inserts a row under a unique key to lock and"
                + " deletes it to unlock, with a reentrancy count and an expiry column (each statement its own"
                + " transaction; a waiter polls from 1 ms, doubling to 32 ms). Databases run at their default durability"
                + " (each commit flushed); Redis keeps nothing on disk.\n");
        skipped.forEach((peer, reason) -> md.append("\n").append(peer.label()).append(": skipped, ").append(reason)
                .append('\n'));
        if (spread) {
            spread(md);
        }
        return md.toString();
    }

    /** Lists, per row, each figure's lowest and highest measured iteration (fleets: run). */
    private void spread(StringBuilder md) {
        md.append("\nSpread, lowest to highest measured iteration (for the cross-process row, run), per row:\n\n");
        for (PeerRow row : rows) {
            StringBuilder line = new StringBuilder();
            range(line, "hasp", results.get(row.hasp().key()));
            for (Peer peer : Peer.values()) {
                range(line, peer.label(), result(row, peer));
            }
            if (line.length() > 0) {
                md.append("- ").append(row.title()).append(", ").append(row.threads()).append(" threads: ")
                        .append(line).append('\n');
            }
        }
        if (haspFleet != null && !peerFleets.isEmpty()) {
            StringBuilder line = new StringBuilder();
            range(line, "hasp", haspFleet);
            peerFleets.forEach((peer, runs) -> range(line, peer.label(), runs));
            md.append("- Cross-process: ").append(line).append('\n');
        }
    }

    private static void range(StringBuilder line, String label, RunResult result) {
        if (result == null || result.getPrimaryResult().getStatistics().getN() == 0) {
            return;
        }
        Statistics statistics = result.getPrimaryResult().getStatistics();
        separate(line).append(label).append(' ').append(MarkdownReport.number(statistics.getMin())).append('–')
                .append(MarkdownReport.number(statistics.getMax()));
    }

    private static void range(StringBuilder line, String label, FleetRuns runs) {
        double min = runs.runs().stream().mapToDouble(FleetDriver.Result::perSecond).min().orElse(Double.NaN);
        double max = runs.runs().stream().mapToDouble(FleetDriver.Result::perSecond).max().orElse(Double.NaN);
        separate(line).append(label).append(' ').append(MarkdownReport.number(min)).append('–')
                .append(MarkdownReport.number(max));
    }

    private static StringBuilder separate(StringBuilder line) {
        return line.length() == 0 ? line : line.append("; ");
    }

    /** A line whose figures are not better or worse, so it shows no advantage. */
    private static final Boolean NO_RATIO = null;

    private interface Figure {
        double of(Peer peer);
    }

    private static String exact(FleetDriver.Result fleet) {
        return fleet.exact() ? "yes (" + fleet.counter() + ")" : "NO (" + fleet.counter() + " of " + fleet.expected() + ")";
    }

    /** One line; {@code lowerIsBetter} null when neither direction is better (no advantage shown). */
    private void line(StringBuilder md, String title, String threads, double hasp, Figure figure,
            Boolean lowerIsBetter) {
        if (Double.isNaN(hasp) && Arrays.stream(Peer.values()).allMatch(p -> Double.isNaN(figure.of(p)))) {
            return;   // not measured in this run (--only)
        }
        md.append("| ").append(title).append(" | ").append(threads).append(" | ").append(MarkdownReport.number(hasp))
                .append(" |");
        for (Peer peer : Peer.values()) {
            md.append(' ');
            if (skipped.containsKey(peer)) {
                md.append("skipped");
            } else {
                double value = figure.of(peer);
                md.append(MarkdownReport.number(value));
                String advantage = lowerIsBetter == null ? MarkdownReport.NONE
                        : lowerIsBetter ? MarkdownReport.ratio(value, hasp) : MarkdownReport.ratio(hasp, value);
                if (!Double.isNaN(value) && !advantage.equals(MarkdownReport.NONE)) {
                    md.append(" (").append(advantage).append(')');
                }
            }
            md.append(" |");
        }
        md.append('\n');
    }

    private RunResult result(PeerRow row, Peer peer) {
        Measurement m = row.peers().get(peer);
        return m == null ? null : results.get(m.key());
    }
}
