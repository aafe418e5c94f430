package io.hasp.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
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
        assertEquals("1", attribute(acquire, "attempts"));
        List<SpanData> scripts = named("EVALSHA acquire reentrant");
        assertEquals(1, scripts.size(), () -> "spans: " + spans.getFinishedSpanItems());
        SpanData script = scripts.get(0);
        assertEquals(acquire.getSpanId(), script.getParentSpanId(), "the script is a child of its acquisition");
        assertEquals(acquire.getTraceId(), script.getTraceId());
        assertEquals("traced:orders:42", attribute(script, "lock"));
        assertEquals("1", attribute(script, "attempt"));
        assertEquals("acquired", attribute(script, "outcome"));
        assertEquals("redis", attribute(script, "db.system"));
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
        assertTrue(named("EVALSHA acquire reentrant").stream().allMatch(script -> "held".equals(attribute(script, "outcome"))
                && script.getParentSpanId().equals(timedOut.getSpanId())), () -> "spans: " + spans.getFinishedSpanItems());
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

    /** Threads of one client on one lock: within a few rounds a release hands the lock to the parked waiter. */
    @Test
    void aHandOverInTheProcessIsAnEventOnTheWaitersSpan() throws Exception {
        HaspLock lock = client.getLock("traced:handover");
        for (int round = 0; round < 20 && handedOver().isEmpty(); round++) {
            lock.lock();
            Thread waiter = new Thread(() -> {
                lock.lock();
                lock.unlock();
            });
            int before = named("EVALSHA acquire reentrant").size();
            waiter.start();
            // The waiter's first script found the lock held: it parks for the release.
            assertTrue(Conditions.await(SLACK, () -> named("EVALSHA acquire reentrant").size() > before));
            lock.unlock();
            waiter.join(SLACK.toMillis());
            assertFalse(waiter.isAlive());
        }
        List<SpanData> handed = handedOver();
        assertFalse(handed.isEmpty(), () -> "no hand-over in 20 rounds: " + spans.getFinishedSpanItems());
        SpanData span = handed.get(0);
        assertEquals("acquired", attribute(span, "outcome"));
        assertTrue(span.getEvents().stream().anyMatch(event -> event.getName().equals("hasp.lock.handed.over")),
                span.toString());
    }

    private List<SpanData> handedOver() {
        return named("lock reentrant").stream().filter(span -> "true".equals(attribute(span, "handed.over"))).toList();
    }

    @Test
    void aFailedRenewalIsASpanWithItsError(RedisServer redis) throws Exception {
        try (HaspClient renewing = HaspClient.create(HaspConfig.builder().uri(redis.uri()).listener(client.config().listener())
                .watchdogLease(Duration.ofSeconds(2)).commandTimeout(Duration.ofMillis(200)).build());
                RedisProbe probe = redis.probe()) {
            HaspLock lock = renewing.getLock("traced:renewed");
            lock.lock();
            probe.call("CLIENT", "PAUSE", "1500", "WRITE");   // the renewal script waits past its command timeout
            try {
                assertTrue(Conditions.await(SLACK, () -> !named("renewal failed").isEmpty()),
                        () -> "spans: " + spans.getFinishedSpanItems());
            } finally {
                probe.call("CLIENT", "UNPAUSE");
            }
            SpanData failed = named("renewal failed").get(0);
            assertEquals(StatusData.error().getStatusCode(), failed.getStatus().getStatusCode());
            assertEquals("1", attribute(failed, "holds"));
            assertEquals("traced:renewed", attribute(failed, "lock"));
            assertEquals("reentrant", attribute(failed, "kind"));
            lock.forceUnlock();
        }
    }
}
