package io.hasp.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class SvgChartTest {

    @Test
    void rendersWellFormedSvgWithOneLinePerSeries() throws Exception {
        String svg = new SvgChart("pairs/s <higher & better>", "threads", "pairs/s", List.of("1", "8", "32"))
                .series("hasp", "#1f77b4", false, new double[] {5_000, 40_000, 60_000})
                .series("Redisson", "#d62728", true, new double[] {4_000, Double.NaN, 17_000})
                .render();
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", doc.getDocumentElement().getTagName());
        assertEquals(2, doc.getElementsByTagName("polyline").getLength());
        assertEquals(5, doc.getElementsByTagName("circle").getLength(), "a missing point draws no marker");
        assertTrue(svg.contains("&lt;higher &amp; better&gt;"));
    }

    @Test
    void rejectsASeriesOfTheWrongLength() {
        SvgChart chart = new SvgChart("t", "x", "y", List.of("1", "8"));
        assertThrows(IllegalArgumentException.class, () -> chart.series("s", "#000", false, new double[] {1}));
    }

    @Test
    void axisStepsAndLabelsAreRound() {
        assertEquals(20_000, SvgChart.niceStep(13_000));
        assertEquals(2.5, SvgChart.niceStep(2.2));
        assertEquals("60k", SvgChart.format(60_000));
        assertEquals("2.5k", SvgChart.format(2_500));
        assertEquals("250", SvgChart.format(250));
    }

    @Test
    void ratiosAreWrittenWithTwoDecimals() {
        assertEquals("2.13x", MarkdownReport.ratio(2130, 1000));
        assertEquals("–", MarkdownReport.ratio(1, Double.NaN));
    }
}
