package io.hasp.lock;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watchdog of one client: a single periodic task on the shared timer that renews the
 * leases of all watchdog holds of the client, every lease/3, in batches of at most
 * {@code batchSize} locks per script call.
 *
 * <p>Outcomes per hold: renewed (its lease is valid until send time + lease); no longer held in
 * Redis ({@link HoldEnd#LOST}); Redis unreachable (tried again next tick, and {@link HoldEnd#LOST}
 * once the lease has run out without a confirmed renewal). Holds with an explicit lease are
 * never renewed; once they are well past their lease they are forgotten as {@link HoldEnd#EXPIRED}.
 * Thread-safe; the task runs on the timer thread and completes on event-loop threads.
 */
final class LeaseRenewer {

    /** Sends one batch renewal: keys and owners pairwise; the future is one '1'/'0' per key. */
    @FunctionalInterface
    interface Renewal {
        CompletableFuture<String> renew(List<String> keys, List<String> owners, long leaseMillis);
    }

    private static final Logger log = LoggerFactory.getLogger(LeaseRenewer.class);

    private final HoldRegistry holds;
    private final Timer timer;
    private final LongSupplier nanoClock;
    private final long leaseMillis;
    private final int batchSize;
    private final Renewal renewal;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong calls = new AtomicLong();
    private volatile boolean closed;
    private volatile Timeout next;

    LeaseRenewer(HoldRegistry holds, Timer timer, LongSupplier nanoClock, long leaseMillis, int batchSize,
            Renewal renewal) {
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
        long now = nanoClock.getAsLong();
        List<CompletableFuture<Void>> flights = new ArrayList<>();
        List<Hold> batch = new ArrayList<>(batchSize);
        CompletableFuture<Void> flight = new CompletableFuture<>();
        for (Hold hold : holds.all()) {
            if (hold.expired(now, TimeUnit.MILLISECONDS.toNanos(leaseMillis))) {
                holds.end(hold, HoldEnd.EXPIRED);
                continue;
            }
            if (!hold.beginRenewal(flight)) {
                continue;
            }
            batch.add(hold);
            if (batch.size() == batchSize) {
                flights.add(send(batch, flight, now));
                batch = new ArrayList<>(batchSize);
                flight = new CompletableFuture<>();
            }
        }
        if (!batch.isEmpty()) {
            flights.add(send(batch, flight, now));
        }
        return CompletableFuture.allOf(flights.toArray(new CompletableFuture<?>[0]));
    }

    private CompletableFuture<Void> send(List<Hold> batch, CompletableFuture<Void> flight, long sentNanos) {
        List<String> keys = new ArrayList<>(batch.size());
        List<String> owners = new ArrayList<>(batch.size());
        for (Hold hold : batch) {
            keys.add(hold.name);
            owners.add(hold.owner);
        }
        calls.incrementAndGet();
        CompletableFuture<String> reply;
        try {
            reply = renewal.renew(keys, owners, leaseMillis);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        reply.whenComplete((outcome, error) -> {
            try {
                settle(batch, outcome, error, sentNanos);
            } finally {
                flight.complete(null);
            }
        });
        return flight;
    }

    private void settle(List<Hold> batch, String outcome, Throwable error, long sentNanos) {
        if (error != null || outcome == null || outcome.length() != batch.size()) {
            long now = nanoClock.getAsLong();
            String why = error != null ? LockService.unwrap(error).toString() : "unexpected reply " + outcome;
            log.debug("lease renewal of {} locks failed, trying again next tick: {}", batch.size(), why);
            for (Hold hold : batch) {
                hold.endRenewal(false, sentNanos);
                if (hold.leaseRunOut(now)) {
                    log.warn("lock {} lost by {}: its lease ran out without a confirmed renewal ({})",
                            hold.name, hold.owner, why);
                    holds.end(hold, HoldEnd.LOST);
                }
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Hold hold = batch.get(i);
            boolean renewed = outcome.charAt(i) == '1';
            hold.endRenewal(renewed, sentNanos);
            if (!renewed) {
                log.warn("lock {} lost by {}: no longer held in Redis", hold.name, hold.owner);
                holds.end(hold, HoldEnd.LOST);
            }
        }
    }
}
