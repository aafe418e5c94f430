package io.hasp.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.RedisConnectionException;
import io.hasp.lock.HoldEnd;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard in {@code grafana/hasp-dashboard.json} against the meters {@link HaspMetrics} registers,
 * as a Prometheus scrape names them: every series a panel queries exists (a renamed meter fails the build), and
 * every meter has a panel.
 */
class HaspDashboardTest {

    private static final Path DASHBOARD = Path.of("grafana", "hasp-dashboard.json");
    private static final Pattern SERIES = Pattern.compile("hasp_[a-z_]+");

    /** The series names of a scrape after one of every event, so that every meter and tag exists. */
    private static TreeSet<String> scrapedSeries() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try {
            HaspMetrics metrics = HaspMetrics.builder().build();
            metrics.bindTo(registry);
            metrics.acquired("reentrant", "a", 1_000, null);
            metrics.acquireFailed("fair", "a", 2_000, null, null);
            metrics.holdEnded("reentrant", "a", HoldEnd.RELEASED, 3_000);
            metrics.holdEnded("reentrant", "a", HoldEnd.LOST, 3_000);
            metrics.unlockFailed("reentrant", "a", new IllegalMonitorStateException("not held"));
            metrics.unlockFailed("reentrant", "a", new RedisConnectionException("gone"));
            metrics.renewed(3, 1, 4_000);
            metrics.connectionChanged("cmd-0 127.0.0.1:6379", false);
            metrics.connectionChanged("cmd-0 127.0.0.1:6379", true);
            metrics.topologyChanged("a new slot map");
            TreeSet<String> series = new TreeSet<>();
            for (String line : registry.scrape().split("\n")) {
                if (line.startsWith("hasp_")) {
                    series.add(line.split("[{ ]", 2)[0]);
                }
            }
            return series;
        } finally {
            registry.close();
        }
    }

    private static String family(String series) {
        return series.replaceAll("_(bucket|count|sum|max)$", "");
    }

    @Test
    void everySeriesTheDashboardQueriesIsOneTheMetersMake() throws IOException {
        TreeSet<String> scraped = scrapedSeries();
        TreeSet<String> queried = new TreeSet<>();
        Matcher m = SERIES.matcher(Files.readString(DASHBOARD));
        while (m.find()) {
            queried.add(m.group());
        }
        assertTrue(queried.size() >= 10, "the dashboard queries hasp's series: " + queried);
        TreeSet<String> unknown = new TreeSet<>(queried);
        unknown.removeAll(scraped);
        assertEquals(new TreeSet<>(), unknown, "series the dashboard queries but no meter makes (scraped: " + scraped + ")");
    }

    @Test
    void everyMeterHasAPanel() throws IOException {
        TreeSet<String> shown = new TreeSet<>();
        Matcher m = SERIES.matcher(Files.readString(DASHBOARD));
        while (m.find()) {
            shown.add(family(m.group()));
        }
        TreeSet<String> missing = new TreeSet<>();
        for (String series : scrapedSeries()) {
            if (!shown.contains(family(series))) {
                missing.add(family(series));
            }
        }
        assertEquals(new TreeSet<>(), missing, "meters without a panel on the dashboard");
    }
}
