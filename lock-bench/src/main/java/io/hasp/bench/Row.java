package io.hasp.bench;

/**
 * One line of the results table: the same work measured for hasp and its peers.
 *
 * @param title what is measured, with its unit
 * @param threads the benchmark threads (shown in the table)
 * @param scriptsPerOp Lua script calls per operation, for the "% of ceiling" column; 0 where that makes no sense
 * @param hasp hasp's measurement, or null
 * @param redisson Redisson's measurement, or null
 * @param lettuce Lettuce's measurement, or null
 * @param chartSeries the chart series this row contributes a point to, or null
 * @param lockPairs whether an operation is one reentrant lock+unlock pair (acquire and unlock scripts), for
 *     the share of the server's pair ceiling
 */
public record Row(String title, int threads, double scriptsPerOp, Measurement hasp, Measurement redisson,
        Measurement lettuce, String chartSeries, boolean lockPairs) {

    /**
     * A row whose operation is not a reentrant lock+unlock pair.
     *
     * @param title what is measured, with its unit
     * @param threads the benchmark threads
     * @param scriptsPerOp Lua script calls per operation, 0 where that makes no sense
     * @param hasp hasp's measurement, or null
     * @param redisson Redisson's measurement, or null
     * @param lettuce Lettuce's measurement, or null
     * @param chartSeries the chart series, or null
     */
    public Row(String title, int threads, double scriptsPerOp, Measurement hasp, Measurement redisson,
            Measurement lettuce, String chartSeries) {
        this(title, threads, scriptsPerOp, hasp, redisson, lettuce, chartSeries, false);
    }
}
