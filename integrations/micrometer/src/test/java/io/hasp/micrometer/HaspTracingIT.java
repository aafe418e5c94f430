package io.hasp.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * hasp's observations as OpenTelemetry spans, through Micrometer Tracing's OpenTelemetry bridge, caught by the SDK's
 * in-memory exporter: each acquisition and each unlock is a span that names its lock, kind, outcome and wait.
 */
@ExtendWith(RedisServerExtension.class)
class HaspTracingIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private InMemorySpanExporter spans;
    private SdkTracerProvider tracing;
    private HaspClient client;
    private HaspClient other;

    @BeforeEach
    void start(RedisServer redis) {
        spans = InMemorySpanExporter.create();
        tracing = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
        OtelTracer tracer = new OtelTracer(tracing.get("hasp-test"), new OtelCurrentTraceContext(), event -> { });
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        HaspMetrics metrics = HaspMetrics.builder().clientName("orders").observations(observations).build();
        client = HaspClient.create(HaspConfig.builder().uri(redis.uri()).listener(metrics).build());
        other = HaspClient.create(redis.uri());
    }

    @AfterEach
    void stop() {
        client.close();
        other.close();
        tracing.close();
    }

    private List<SpanData> named(String name) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).toList();
    }

    private static String attribute(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    @Test
    void anAcquisitionAndItsUnlockAreSpansThatNameTheLock() {
        HaspLock lock = client.getLock("traced:orders:42");
        lock.lock();
        lock.unlock();
        assertTrue(Conditions.await(SLACK, () -> named("lock reentrant").size() == 1 && named("unlock reentrant").size() == 1),
                () -> "spans: " + spans.getFinishedSpanItems());
        SpanData acquire = named("lock reentrant").get(0);
        assertEquals("traced:orders:42", attribute(acquire, "lock"));
        assertEquals("reentrant", attribute(acquire, "kind"));
        assertEquals("acquired", attribute(acquire, "outcome"));
        assertEquals("orders", attribute(acquire, "client"));
        assertTrue(Long.parseLong(attribute(acquire, "wait.ms")) >= 0, acquire.toString());
        SpanData release = named("unlock reentrant").get(0);
        assertEquals("traced:orders:42", attribute(release, "lock"));
        assertEquals("released", attribute(release, "outcome"));
        assertFalse(release.getStatus().getStatusCode() == StatusData.error().getStatusCode(), release.toString());
    }

    @Test
    void aWaitThatRunsOutAndAFailedUnlockAreSpansToo() throws Exception {
        HaspLock elsewhere = other.getLock("traced:busy");
        elsewhere.lock();
        try {
            assertFalse(client.getLock("traced:busy").tryLock(50, TimeUnit.MILLISECONDS));
        } finally {
            elsewhere.unlock();
        }
        assertTrue(Conditions.await(SLACK, () -> named("lock reentrant").size() == 1), () -> "spans: " + spans.getFinishedSpanItems());
        SpanData timedOut = named("lock reentrant").get(0);
        assertEquals("timeout", attribute(timedOut, "outcome"));
        assertTrue(Long.parseLong(attribute(timedOut, "wait.ms")) >= 50, timedOut.toString());

        HaspLock notHeld = client.getLock("traced:not-held");
        try {
            notHeld.unlock();
        } catch (IllegalMonitorStateException expected) {
            // the span says so
        }
        assertTrue(Conditions.await(SLACK, () -> named("unlock reentrant").size() == 1), () -> "spans: " + spans.getFinishedSpanItems());
        SpanData failed = named("unlock reentrant").get(0);
        assertEquals("failed", attribute(failed, "outcome"));
        assertEquals("traced:not-held", attribute(failed, "lock"));
        assertEquals(StatusData.error().getStatusCode(), failed.getStatus().getStatusCode());
    }
}
