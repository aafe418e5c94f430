package io.hasp.internal.lock;

import io.hasp.RedisProtocolException;
import io.hasp.internal.Futures;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watchdog of one client: a single periodic task on the shared timer that renews the
 * leases of all watchdog holds of the client, of every {@link LockKind}, every lease/3, in
 * batches of at most {@code batchSize} holds of one kind per script call.
 *
 * <p>Outcomes per hold: renewed (its lease is valid until send time + lease); no longer held in
 * Redis ({@link HoldEnd#LOST}); Redis unreachable (tried again next tick, and {@link HoldEnd#LOST}
 * once the lease has run out without a confirmed renewal). Holds with an explicit lease are
 * never renewed; once they are well past their lease they are forgotten as {@link HoldEnd#EXPIRED}.
 * Thread-safe; the task runs on the timer thread and completes on event-loop threads.
 */
final class LeaseRenewer {

    /** Sends one batch renewal of one kind: names and owners pairwise; the future is one '1'/'0' per hold. */
    @FunctionalInterface
    interface Renewal {
        CompletableFuture<String> renew(LockKind kind, List<String> names, List<LockOwner> owners, long leaseMillis);
    }

    private static final Logger log = LoggerFactory.getLogger(LeaseRenewer.class);

    private final HoldRegistry holds;
    private final Timer timer;
    private final LongSupplier nanoClock;
    private final long leaseMillis;
    private final int batchSize;
    private final Renewal renewal;
    /** Which batch a lock name's holds join besides their kind (on a cluster: its master); null: by kind only. */
    private final Function<String, Object> batchGroup;
    private final LockEvents events;   // null: no listener
    /** Passes over other leases of the client (a semaphore's watchdog permits), run in each pass beside the holds'. */
    private final List<Supplier<CompletableFuture<Void>>> alongside = new CopyOnWriteArrayList<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong calls = new AtomicLong();
    private volatile boolean closed;
    private volatile Timeout next;

    LeaseRenewer(HoldRegistry holds, Timer timer, LongSupplier nanoClock, long leaseMillis, int batchSize,
            Renewal renewal) {
        this(holds, timer, nanoClock, leaseMillis, batchSize, renewal, null, null);
    }

    /**
     * @param batchGroup which batch the holds of a lock name join besides their kind (on a
     *     cluster: the master that serves it), or null to batch by kind only
     * @param events told of each renewal call's outcome, or null
     */
    LeaseRenewer(HoldRegistry holds, Timer timer, LongSupplier nanoClock, long leaseMillis, int batchSize,
            Renewal renewal, Function<String, Object> batchGroup, LockEvents events) {
        this.events = events;
        this.batchGroup = batchGroup;
        this.holds = holds;
        this.timer = timer;
        this.nanoClock = nanoClock;
        this.leaseMillis = leaseMillis;
        this.batchSize = batchSize;
        this.renewal = renewal;
    }

    /** The watchdog lease, in milliseconds. */
    long leaseMillis() {
        return leaseMillis;
    }

    /** The period between renewal passes, in milliseconds: a third of the lease. */
    long periodMillis() {
        return Math.max(1, leaseMillis / 3);
    }

    /** How many renewal script calls were sent so far. */
    long calls() {
        return calls.get();
    }

    /**
     * Runs {@code pass} in every renewal pass from now on, beside the holds' batches (a pass after a master switch
     * too): other leases of the client that the watchdog keeps. The future it returns completes when its calls
     * settled.
     */
    void renewAlongside(Supplier<CompletableFuture<Void>> pass) {
        alongside.add(pass);
    }

    /** Arms the periodic task, once; further calls do nothing. */
    void start() {
        if (!closed && started.compareAndSet(false, true)) {
            schedule();
        }
    }

    /** Stops the periodic task; renewals already sent complete normally. */
    void close() {
        closed = true;
        Timeout t = next;
        if (t != null) {
            t.cancel();
        }
    }

    private void schedule() {
        if (closed) {
            return;
        }
        try {
            next = timer.newTimeout(t -> {
                try {
                    renewNow();
                } finally {
                    schedule();
                }
            }, periodMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // The timer was stopped (client closing): nothing left to renew.
            log.debug("lease renewal stopped: {}", e.toString());
        }
    }

    /** One renewal pass over every watchdog hold, now; the future completes when all batches did. */
    CompletableFuture<Void> renewNow() {
        return renewAfter(null);
    }

    /**
     * {@link #renewNow()} because of {@code change} (a master switch, say), which a hold found gone in
     * this pass is reported lost to.
     */
    CompletableFuture<Void> renewAfter(String change) {
        long now = nanoClock.getAsLong();
        List<CompletableFuture<Void>> flights = new ArrayList<>();
        Map<BatchKey, Batch> batches = new LinkedHashMap<>();
        for (Hold hold : holds.all()) {
            if (hold.expired(now, TimeUnit.MILLISECONDS.toNanos(leaseMillis))) {
                holds.end(hold, HoldEnd.EXPIRED);
                continue;
            }
            BatchKey key = new BatchKey(hold.kind, batchGroup == null ? null : batchGroup.apply(hold.name));
            Batch batch = batches.computeIfAbsent(key, k -> new Batch(k.kind(), batchSize));
            if (!hold.beginRenewal(batch.flight)) {
                continue;
            }
            batch.holds.add(hold);
            if (batch.holds.size() == batchSize) {
                flights.add(send(batch, now, change));
                batches.remove(key);
            }
        }
        for (Batch batch : batches.values()) {
            if (!batch.holds.isEmpty()) {
                flights.add(send(batch, now, change));
            }
        }
        for (Supplier<CompletableFuture<Void>> pass : alongside) {
            try {
                flights.add(pass.get());
            } catch (RuntimeException e) {
                log.warn("a renewal pass beside the locks' failed: {}", e.toString());
            }
        }
        return CompletableFuture.allOf(flights.toArray(new CompletableFuture<?>[0]));
    }

    /** Which batch a hold joins: its kind, and on a cluster its master (null on one server). */
    private record BatchKey(LockKind kind, Object group) {
    }

    /** Holds of one kind renewed by one script call; {@code flight} completes when it settled. */
    private static final class Batch {
        final LockKind kind;
        final List<Hold> holds;
        final CompletableFuture<Void> flight = new CompletableFuture<>();

        Batch(LockKind kind, int capacity) {
            this.kind = kind;
            this.holds = new ArrayList<>(capacity);
        }
    }

    private CompletableFuture<Void> send(Batch batch, long sentNanos, String change) {
        List<String> names = new ArrayList<>(batch.holds.size());
        List<LockOwner> owners = new ArrayList<>(batch.holds.size());
        for (Hold hold : batch.holds) {
            names.add(hold.name);
            owners.add(hold.owner);
        }
        calls.incrementAndGet();
        CompletableFuture<String> reply = Futures.sent(() -> renewal.renew(batch.kind, names, owners, leaseMillis));
        reply.whenComplete((outcome, error) -> {
            try {
                settle(batch.holds, outcome, error, sentNanos, change);
            } finally {
                batch.flight.complete(null);
            }
        });
        return batch.flight;
    }

    private void settle(List<Hold> batch, String outcome, Throwable error, long sentNanos, String change) {
        if (error != null || outcome == null || outcome.length() != batch.size()) {
            long now = nanoClock.getAsLong();
            String why = error != null ? Futures.unwrap(error).toString() : "unexpected reply " + outcome;
            log.debug("lease renewal of {} locks failed, trying again next tick: {}", batch.size(), why);
            if (events != null) {
                events.renewalFailed(batch.get(0).kind, batch.stream().map(hold -> hold.name).toList(),
                        error != null ? Futures.unwrap(error) : new RedisProtocolException("lease renewal: " + why, null));
            }
            for (Hold hold : batch) {
                hold.endRenewal(false, sentNanos);
                if (hold.leaseRunOut(now)) {
                    log.warn("{} lock {} lost by {}: its lease ran out without a confirmed renewal ({})",
                            hold.kind, hold.name, hold.field, why);
                    holds.end(hold, HoldEnd.LOST);
                }
            }
            return;
        }
        if (events != null) {
            long gone = outcome.chars().filter(c -> c != '1').count();
            events.renewed(batch.size(), (int) gone, nanoClock.getAsLong() - sentNanos);
        }
        for (int i = 0; i < batch.size(); i++) {
            Hold hold = batch.get(i);
            boolean renewed = outcome.charAt(i) == '1';
            hold.endRenewal(renewed, sentNanos);
            if (!renewed) {
                String why = change == null ? "the watchdog found it gone: no longer held in Redis"
                        : "the watchdog found it gone after " + change;
                log.warn("{} lock {} lost by {}: {}", hold.kind, hold.name, hold.field, why);
                holds.end(hold, HoldEnd.LOST, why);
            }
        }
    }
}
