package io.hasp.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.bench.Row;
import io.hasp.bench.ServerCeiling;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.util.ListStatistics;

class MarkdownReportTest {

    @Test
    void aFigureIsTheMedianIterationNotTheMean() {
        ListStatistics iterations = new ListStatistics(new double[] {60_000, 12_000, 58_000, 61_000, 59_000});
        assertEquals(50_000, iterations.getMean(), 1e-6, "JMH's score, the mean, is pulled down by one slow iteration");
        assertEquals(59_000, MarkdownReport.median(iterations), 1e-6);
    }

    @Test
    void noIterationGivesNoFigure() {
        assertTrue(Double.isNaN(MarkdownReport.median(new ListStatistics())));
    }

    @Test
    void aValueReportedOnceAfterTheLastIterationIsTakenAsReportedNotSpreadOverTheIterations() {
        List<Map<String, Result>> iterations = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            iterations.add(Map.of("gc.alloc.rate.norm", new ScalarResult("gc.alloc.rate.norm", 800 + i, "B/op",
                    AggregationPolicy.AVG)));
        }
        iterations.add(Map.of(
                "gc.alloc.rate.norm", new ScalarResult("gc.alloc.rate.norm", 804, "B/op", AggregationPolicy.AVG),
                "wait.p50", new ScalarResult("wait.p50", 573.4, "us", AggregationPolicy.AVG)));
        assertEquals(573.4, MarkdownReport.reported(iterations, "wait.p50"), 1e-9, "not 573.4 / 5");
        assertEquals(802, MarkdownReport.reported(iterations, "gc.alloc.rate.norm"), 1e-9);
        assertTrue(Double.isNaN(MarkdownReport.reported(iterations, "wait.p99")));
    }

    @Test
    void pairRowsShowTheirShareOfThePairCeiling() {
        ServerCeiling.Result pairs = new ServerCeiling.Result("redis-benchmark ...", 200_000, "");
        Row pairRow = new Row("pairs", 1, 2, null, null, null, null, true);
        Row otherRow = new Row("calls", 1, 1, null, null, null, null);
        assertEquals(" (50% / 8% of pairs)", MarkdownReport.pairShare(pairRow, pairs, 100_000, 15_000));
        assertEquals(" (50% / – of pairs)", MarkdownReport.pairShare(pairRow, pairs, 100_000, Double.NaN));
        assertEquals("", MarkdownReport.pairShare(otherRow, pairs, 100_000, 15_000));
        assertEquals("", MarkdownReport.pairShare(pairRow, new ServerCeiling.Result("redis-benchmark", 0, "n/a"),
                100_000, 15_000));
    }
}
