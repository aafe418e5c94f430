package io.hasp.micrometer;

import io.hasp.HaspClient;
import io.hasp.HaspListener;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * A {@link HaspClient}'s meters, made from the events it tells its {@link HaspListener}: set it as the client's
 * listener, bind it to a {@link MeterRegistry}, and tell it the client for the gauges of holds and commands.
 *
 * <pre>{@code
 * HaspMetrics metrics = HaspMetrics.builder().clientName("orders").build();
 * HaspClient client = HaspClient.create(HaspConfig.builder().uri(uri).listener(metrics).build());
 * metrics.bindTo(registry);
 * metrics.watch(client);
 * }</pre>
 *
 * <p>The meters, all tagged {@code client} (the name given, default {@code hasp}); the lock meters also
 * {@code kind} ({@code reentrant}, {@code fair}, {@code fenced}, {@code read}, {@code write}):
 * <ul>
 *   <li>{@code hasp.lock.acquire} (timer, with a percentile histogram): each acquisition's wait, tagged
 *       {@code outcome}: {@code acquired}, {@code timeout} (its wait time passed), {@code cancelled}
 *       (interrupted or cancelled) or {@code failed};</li>
 *   <li>{@code hasp.lock.held} (timer): each hold, from its grant to its end, tagged {@code end}:
 *       {@code released}, {@code lost} or {@code expired};</li>
 *   <li>{@code hasp.lock.lost} (counter): holds that ended before their unlock, tagged {@code cause}: {@code lost}
 *       (the key was gone: deleted, flushed, lost in a failover) or {@code expired} (a lease time ran out);</li>
 *   <li>{@code hasp.lock.unlock.errors} (counter): unlocks that failed, tagged {@code error}: {@code not_held},
 *       {@code hold_lost} or {@code redis};</li>
 *   <li>{@code hasp.lock.renewals} (timer): the watchdog's renewal calls, and {@code hasp.lock.renewed.holds}
 *       (counter) the holds they renewed;</li>
 *   <li>{@code hasp.locks.held} (gauge): the holds the watched client has now;</li>
 *   <li>{@code hasp.commands.in.flight} (gauge): the commands the watched client has sent or queued and not had
 *       answered yet ({@link HaspClient#commandsInFlight()}); a count that climbs means Redis or the network
 *       does not keep up;</li>
 *   <li>{@code hasp.connection.losses} and {@code hasp.connection.reconnects} (counters), and
 *       {@code hasp.topology.changes} (counter): master switches and new slot maps.</li>
 * </ul>
 *
 * <p>Lock names are not tags by default: an application with a name per order or per user would make a meter
 * per name. {@link Builder#lockNames} opts in for a bounded set: those names are tagged {@code lock=<name>}, every
 * other name {@code lock=other}. With {@link Builder#observations} each acquisition is also an
 * {@link Observation} named {@code hasp.lock.acquire} ({@code lock <kind>} in a trace), with {@code kind} and
 * {@code outcome} ({@code acquired}, {@code timeout}, {@code cancelled}, {@code failed}) as low-cardinality keys and
 * the lock's name ({@code lock}) and the wait in milliseconds ({@code wait.ms}) as high-cardinality ones (on the
 * span, never on a meter); and each unlock an {@link Observation} named {@code hasp.lock.release} ({@code unlock
 * <kind>}), with {@code kind}, {@code outcome} ({@code released} or {@code failed}) and {@code lock}. Under an
 * acquisition, each acquire script it sends is a child observation {@code hasp.lock.attempt} ({@code EVALSHA acquire
 * <kind>}, with {@code attempt} and {@code outcome}: {@code acquired}, {@code held} or {@code no_answer}), the
 * acquisition counts them ({@code attempts}), and a hand-over in this process is an event on it
 * ({@code hasp.lock.handed.over}, with {@code handed.over=true}). A failed watchdog renewal is an observation
 * {@code hasp.lock.renewal.failed} with the error, the kind and the names of the locks it renewed ({@code lock}). With Micrometer Tracing's OpenTelemetry or Brave bridge on the
 * registry, each is a span that names its lock.
 *
 * <p>Events that come before {@link #bindTo} are not counted. Thread-safe; the listener's methods are quick and
 * never block.
 */
public final class HaspMetrics implements HaspListener, MeterBinder {

    private final String clientName;
    private final Predicate<String> lockNames;   // null: no lock tag
    private final ObservationRegistry observations;
    private volatile Meters meters;
    private volatile HaspClient client;

    private HaspMetrics(Builder builder) {
        this.clientName = builder.clientName;
        this.lockNames = builder.lockNames;
        this.observations = builder.observations;
    }

    /** @return a builder with the defaults: client name {@code hasp}, no lock-name tag, no observations */
    public static Builder builder() {
        return new Builder();
    }

    /** Registers the meters on {@code registry}; from now on events are counted there. */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        Tags client = Tags.of("client", clientName);
        watchedGauge(registry, client, "hasp.locks.held", "holds the client has now", HaspClient::heldLocks);
        watchedGauge(registry, client, "hasp.commands.in.flight", "commands sent or queued and not answered yet",
                HaspClient::commandsInFlight);
        meters = new Meters(registry, client);
    }

    /** A gauge of the watched client's {@code reading}; {@code NaN} before {@link #watch}. */
    private void watchedGauge(MeterRegistry registry, Tags tags, String name, String description,
            ToDoubleFunction<HaspClient> reading) {
        Gauge.builder(name, this, metrics -> {
            HaspClient watched = metrics.client;
            return watched == null ? Double.NaN : reading.applyAsDouble(watched);
        }).tags(tags).description(description).register(registry);
    }

    /**
     * Tells the gauges {@code hasp.locks.held} and {@code hasp.commands.in.flight} which client to read (they
     * read {@code NaN} until then).
     *
     * @param client the client whose listener this is
     */
    public void watch(HaspClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    private Tags lockTags(String kind, String lock) {
        Tags tags = Tags.of("kind", kind);
        return lockNames == null ? tags : tags.and("lock", lockNames.test(lock) ? lock : "other");
    }

    @Override
    public Object acquireStarted(String kind, String lock) {
        if (observations == null) {
            return null;
        }
        return lockObservation("hasp.lock.acquire", "lock " + kind, kind, lock).start();
    }

    /** An observation of one lock of this client: its name, kind and client as keys, not started. */
    private Observation lockObservation(String name, String contextualName, String kind, String lock) {
        return Observation.createNotStarted(name, observations)
                .contextualName(contextualName)
                .lowCardinalityKeyValue("kind", kind)
                .lowCardinalityKeyValue("client", clientName)
                .highCardinalityKeyValue("lock", lock);
    }

    @Override
    public void acquired(String kind, String lock, long waitNanos, Object started) {
        record(kind, lock, waitNanos, "acquired");
        if (started instanceof Observation observation) {
            observation.lowCardinalityKeyValue("outcome", "acquired")
                    .highCardinalityKeyValue("wait.ms", millis(waitNanos)).stop();
        }
    }

    private static String millis(long nanos) {
        return Long.toString(TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    @Override
    public void acquireFailed(String kind, String lock, long waitNanos, Throwable cause, Object started) {
        String outcome = cause == null ? "timeout"
                : cause instanceof CancellationException || cause instanceof InterruptedException ? "cancelled" : "failed";
        record(kind, lock, waitNanos, outcome);
        if (started instanceof Observation observation) {
            if (cause != null) {
                observation.error(cause);
            }
            observation.lowCardinalityKeyValue("outcome", outcome).highCardinalityKeyValue("wait.ms", millis(waitNanos))
                    .stop();
        }
    }

    /** Each acquire script sent is a child of its acquisition's observation; the acquisition counts them. */
    @Override
    public Object attemptSent(String kind, String lock, int attempt, Object started) {
        if (!(started instanceof Observation acquisition)) {
            return null;
        }
        acquisition.highCardinalityKeyValue("attempts", Integer.toString(attempt));
        return Observation.createNotStarted("hasp.lock.attempt", observations)
                .parentObservation(acquisition)
                .contextualName("EVALSHA acquire " + kind)
                .lowCardinalityKeyValue("kind", kind)
                .lowCardinalityKeyValue("db.system", "redis")
                .lowCardinalityKeyValue("db.operation", "EVALSHA")
                .highCardinalityKeyValue("lock", lock)
                .highCardinalityKeyValue("attempt", Integer.toString(attempt))
                .start();
    }

    @Override
    public void attemptAnswered(String kind, String lock, boolean acquired, Throwable error, Object sent) {
        if (sent instanceof Observation attempt) {
            if (error != null) {
                attempt.error(error);
            }
            attempt.lowCardinalityKeyValue("outcome", error != null ? "no_answer" : acquired ? "acquired" : "held")
                    .stop();
        }
    }

    @Override
    public void handedOver(String kind, String lock, Object started) {
        if (started instanceof Observation acquisition) {
            acquisition.highCardinalityKeyValue("handed.over", "true")
                    .event(Observation.Event.of("hasp.lock.handed.over"));
        }
    }

    /** A failed renewal call is an observation of its own, {@code hasp.lock.renewal.failed}, with the error. */
    @Override
    public void renewalFailed(String kind, List<String> locks, Throwable cause) {
        if (observations == null) {
            return;
        }
        Observation.createNotStarted("hasp.lock.renewal.failed", observations)
                .contextualName("renewal failed")
                .lowCardinalityKeyValue("client", clientName)
                .lowCardinalityKeyValue("kind", kind)
                .highCardinalityKeyValue("holds", Integer.toString(locks.size()))
                .highCardinalityKeyValue("lock", String.join(",", locks))
                .start()
                .error(cause)
                .stop();
    }

    @Override
    public Object releaseStarted(String kind, String lock) {
        if (observations == null) {
            return null;
        }
        return lockObservation("hasp.lock.release", "unlock " + kind, kind, lock).start();
    }

    @Override
    public void released(String kind, String lock, long nanos, Throwable cause, Object started) {
        if (started instanceof Observation observation) {
            if (cause != null) {
                observation.error(cause);
            }
            observation.lowCardinalityKeyValue("outcome", cause == null ? "released" : "failed").stop();
        }
    }

    private void record(String kind, String lock, long waitNanos, String outcome) {
        Meters m = meters;
        if (m != null) {
            m.acquire.withTags(lockTags(kind, lock).and("outcome", outcome)).record(waitNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void holdEnded(String kind, String lock, HoldEnd how, long heldNanos) {
        Meters m = meters;
        if (m == null) {
            return;
        }
        String end = how.name().toLowerCase(Locale.ROOT);
        Tags tags = lockTags(kind, lock);
        m.held.withTags(tags.and("end", end)).record(heldNanos, TimeUnit.NANOSECONDS);
        if (how == HoldEnd.LOST || how == HoldEnd.EXPIRED) {
            m.lost.withTags(tags.and("cause", end)).increment();
        }
    }

    @Override
    public void unlockFailed(String kind, String lock, Throwable cause) {
        Meters m = meters;
        if (m != null) {
            String error = cause instanceof HoldLostException ? "hold_lost"
                    : cause instanceof IllegalMonitorStateException ? "not_held" : "redis";
            m.unlockErrors.withTags(lockTags(kind, lock).and("error", error)).increment();
        }
    }

    @Override
    public void renewed(int holds, int lost, long nanos) {
        Meters m = meters;
        if (m != null) {
            m.renewals.record(nanos, TimeUnit.NANOSECONDS);
            m.renewedHolds.increment(holds - lost);
        }
    }

    @Override
    public void connectionChanged(String connection, boolean up) {
        Meters m = meters;
        if (m != null) {
            (up ? m.reconnects : m.losses).increment();
        }
    }

    @Override
    public void topologyChanged(String change) {
        Meters m = meters;
        if (m != null) {
            m.topologyChanges.increment();
        }
    }

    /** The meters of one registry; the tagged ones are looked up per event through their providers. */
    private static final class Meters {
        final Meter.MeterProvider<Timer> acquire;
        final Meter.MeterProvider<Timer> held;
        final Meter.MeterProvider<Counter> lost;
        final Meter.MeterProvider<Counter> unlockErrors;
        final Timer renewals;
        final Counter renewedHolds;
        final Counter losses;
        final Counter reconnects;
        final Counter topologyChanges;

        Meters(MeterRegistry registry, Tags client) {
            acquire = Timer.builder("hasp.lock.acquire").tags(client).publishPercentileHistogram()
                    .description("an acquisition's wait, from its start to the grant or to its end without the lock")
                    .withRegistry(registry);
            held = Timer.builder("hasp.lock.held").tags(client)
                    .description("a hold, from its grant to its end").withRegistry(registry);
            lost = Counter.builder("hasp.lock.lost").tags(client)
                    .description("holds that ended before their unlock").withRegistry(registry);
            unlockErrors = Counter.builder("hasp.lock.unlock.errors").tags(client)
                    .description("unlocks that failed").withRegistry(registry);
            renewals = Timer.builder("hasp.lock.renewals").tags(client)
                    .description("the watchdog's renewal calls").register(registry);
            renewedHolds = Counter.builder("hasp.lock.renewed.holds").tags(client)
                    .description("holds the watchdog renewed").register(registry);
            losses = Counter.builder("hasp.connection.losses").tags(client)
                    .description("connections to Redis lost").register(registry);
            reconnects = Counter.builder("hasp.connection.reconnects").tags(client)
                    .description("connections to Redis made again after a loss").register(registry);
            topologyChanges = Counter.builder("hasp.topology.changes").tags(client)
                    .description("master switches and new slot maps the client learnt of").register(registry);
        }
    }

    /** Builds {@link HaspMetrics}; not thread-safe. */
    public static final class Builder {
        private String clientName = "hasp";
        private Predicate<String> lockNames;
        private ObservationRegistry observations;

        private Builder() {
        }

        /**
         * @param name the value of every meter's {@code client} tag, e.g. the service's name (default {@code hasp})
         * @return this builder
         */
        public Builder clientName(String name) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("clientName: " + (name == null ? "null" : "empty")
                        + " (expected: the client tag's value)");
            }
            this.clientName = name;
            return this;
        }

        /**
         * Tags the lock meters with {@code lock}: the lock's name where {@code names} accepts it, {@code other}
         * elsewhere. Keep the accepted names few (each is a meter per tag combination).
         *
         * @param names which lock names to tag by name, e.g. {@code Set.of("nightly-report")::contains}
         * @return this builder
         */
        public Builder lockNames(Predicate<String> names) {
            this.lockNames = Objects.requireNonNull(names, "names");
            return this;
        }

        /**
         * @param registry where each acquisition is observed as {@code hasp.lock.acquire} (for tracing), or null
         *     for none (the default)
         * @return this builder
         */
        public Builder observations(ObservationRegistry registry) {
            this.observations = registry;
            return this;
        }

        /** @return the meters, to set as a client's listener and bind to a registry */
        public HaspMetrics build() {
            return new HaspMetrics(this);
        }
    }
}
