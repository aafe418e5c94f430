package io.hasp.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small line chart written as SVG text: categorical x values (e.g. thread counts, equally spaced),
 * a linear y axis from zero, one polyline with point markers per series and a legend. Enough for
 * "throughput against threads" without a plotting dependency. Not thread-safe.
 */
public final class SvgChart {

    private static final int WIDTH = 720;
    private static final int HEIGHT = 420;
    private static final int LEFT = 80;
    private static final int RIGHT = 200;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<String> categories;
    private final List<Series> series = new ArrayList<>();

    private record Series(String name, String color, boolean dashed, double[] values) {
    }

    /**
     * Creates an empty chart.
     *
     * @param title the heading
     * @param xLabel the x axis' label
     * @param yLabel the y axis' label
     * @param categories the x values, left to right
     */
    public SvgChart(String title, String xLabel, String yLabel, List<String> categories) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.categories = List.copyOf(categories);
    }

    /**
     * Adds a series.
     *
     * @param name the legend's text
     * @param color an SVG color, e.g. {@code "#d62728"}
     * @param dashed whether the line is dashed
     * @param values one value per category; {@code NaN} for a missing point
     * @return this chart
     */
    public SvgChart series(String name, String color, boolean dashed, double[] values) {
        if (values.length != categories.size()) {
            throw new IllegalArgumentException("values: " + values.length + " (expected: " + categories.size()
                    + ", one per category)");
        }
        series.add(new Series(name, color, dashed, values.clone()));
        return this;
    }

    /**
     * Renders the chart.
     *
     * @return a standalone SVG document
     */
    public String render() {
        double max = 0;
        for (Series s : series) {
            for (double v : s.values()) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        double step = niceStep(max <= 0 ? 1 : max / 5);
        double top = Math.max(step, Math.ceil(max / step) * step);
        int plotWidth = WIDTH - LEFT - RIGHT;
        int plotHeight = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        text(svg, WIDTH / 2.0 - RIGHT / 2.0, 25, "middle", 15, title);
        for (double y = 0; y <= top + step / 2; y += step) {
            double py = TOP + plotHeight - y / top * plotHeight;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, py, LEFT + plotWidth, py));
            text(svg, LEFT - 8, py + 4, "end", 11, format(y));
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                LEFT, TOP + plotHeight, LEFT + plotWidth, TOP + plotHeight));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
                LEFT, TOP, LEFT, TOP + plotHeight));
        for (int i = 0; i < categories.size(); i++) {
            text(svg, x(i, plotWidth), TOP + plotHeight + 18, "middle", 11, categories.get(i));
        }
        text(svg, LEFT + plotWidth / 2.0, HEIGHT - 15, "middle", 12, xLabel);
        svg.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 18 %.1f)\">%s</text>%n", TOP + plotHeight / 2.0, TOP + plotHeight / 2.0,
                escape(yLabel)));
        for (int s = 0; s < series.size(); s++) {
            Series line = series.get(s);
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < categories.size(); i++) {
                double v = line.values()[i];
                if (Double.isNaN(v)) {
                    continue;
                }
                double px = x(i, plotWidth);
                double py = TOP + plotHeight - v / top * plotHeight;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>%n",
                        px, py, line.color()));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                    + "stroke-width=\"2\"%s/>%n", points.toString().trim(), line.color(),
                    line.dashed() ? " stroke-dasharray=\"6 4\"" : ""));
            double ly = TOP + 10 + s * 22;
            int lx = LEFT + plotWidth + 20;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-width=\"2\"%s/>%n", lx, ly, lx + 28, ly, line.color(),
                    line.dashed() ? " stroke-dasharray=\"6 4\"" : ""));
            text(svg, lx + 34, ly + 4, "start", 12, line.name());
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private double x(int index, int plotWidth) {
        return LEFT + (index + 0.5) * plotWidth / categories.size();
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, int size, String content) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, escape(content)));
    }

    static double niceStep(double raw) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double fraction = raw / magnitude;
        double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
        return nice * magnitude;
    }

    static String format(double value) {
        if (value >= 1000) {
            double thousands = value / 1000;
            return thousands == Math.rint(thousands)
                    ? String.format(Locale.ROOT, "%.0fk", thousands)
                    : String.format(Locale.ROOT, "%.1fk", thousands);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
