package io.hasp.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
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
}
