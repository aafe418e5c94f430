package io.hasp.lock.rw;

import io.hasp.lock.HoldEnd;
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
 * The read/write lock watchdog of one client: one periodic task on the client's timer that, every
 * lease/3, renews all watchdog holds (read and write) in batches of at most {@code batchSize}
 * per script call. A read hold's renewal extends the lock's hash and the owner's own timeout keys.
 *
 * <p>Outcomes per hold: renewed; no longer held in Redis ({@link HoldEnd#LOST}); Redis unreachable
 * (tried again next tick; {@link HoldEnd#LOST} once the lease ran out unconfirmed). Holds with an
 * explicit lease are never renewed and are forgotten as {@link HoldEnd#EXPIRED} once well past it.
 * When the client's timer stops (client closed) every hold ends as {@link HoldEnd#CLIENT_CLOSED}.
 * Thread-safe.
 */
final class RwRenewer {

    /** Sends one batch: names, owner fields and modes pairwise; the future is one '1'/'0' per hold. */
    @FunctionalInterface
    interface Renewal {
        CompletableFuture<String> renew(List<String> names, List<String> owners, List<LockMode> modes, long leaseMillis);
    }

    private static final Logger log = LoggerFactory.getLogger(RwRenewer.class);

    private final RwHolds holds;
    private final Timer timer;
    private final LongSupplier nanoClock;
    private final long leaseMillis;
    private final int batchSize;
    private final Renewal renewal;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicLong calls = new AtomicLong();
    private volatile boolean closed;

    RwRenewer(RwHolds holds, Timer timer, LongSupplier nanoClock, long leaseMillis, int batchSize, Renewal renewal) {
        this.holds = holds;
        this.timer = timer;
        this.nanoClock = nanoClock;
        this.leaseMillis = leaseMillis;
        this.batchSize = batchSize;
        this.renewal = renewal;
    }

    /** How many renewal script calls were sent so far. */
    long calls() {
        return calls.get();
    }

    /** Arms the periodic task, once. */
    void start() {
        if (!closed && started.compareAndSet(false, true)) {
            schedule();
        }
    }

    /** Stops the task and ends every hold as {@link HoldEnd#CLIENT_CLOSED}. */
    void close() {
        closed = true;
        for (RwHold hold : holds.all()) {
            holds.end(hold, HoldEnd.CLIENT_CLOSED);
        }
    }

    private void schedule() {
        if (closed) {
            return;
        }
        try {
            timer.newTimeout(t -> {
                try {
                    renewNow();
                } finally {
                    schedule();
                }
            }, Math.max(1, leaseMillis / 3), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            log.debug("read/write lock renewal stopped (client closed): {}", e.toString());
            close();
        }
    }

    /** One renewal pass over every watchdog hold, now; the future completes when all batches did. */
    CompletableFuture<Void> renewNow() {
        long now = nanoClock.getAsLong();
        List<CompletableFuture<Void>> flights = new ArrayList<>();
        List<RwHold> batch = new ArrayList<>(batchSize);
        CompletableFuture<Void> flight = new CompletableFuture<>();
        for (RwHold hold : holds.all()) {
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

    private CompletableFuture<Void> send(List<RwHold> batch, CompletableFuture<Void> flight, long sentNanos) {
        List<String> names = new ArrayList<>(batch.size());
        List<String> owners = new ArrayList<>(batch.size());
        List<LockMode> modes = new ArrayList<>(batch.size());
        for (RwHold hold : batch) {
            names.add(hold.name);
            owners.add(hold.owner);
            modes.add(hold.mode);
        }
        calls.incrementAndGet();
        CompletableFuture<String> reply;
        try {
            reply = renewal.renew(names, owners, modes, leaseMillis);
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

    private void settle(List<RwHold> batch, String outcome, Throwable error, long sentNanos) {
        if (error != null || outcome == null || outcome.length() != batch.size()) {
            long now = nanoClock.getAsLong();
            log.debug("renewal of {} read/write holds failed, trying again next tick: {}", batch.size(),
                    error != null ? error.toString() : "reply " + outcome);
            for (RwHold hold : batch) {
                hold.endRenewal(false, sentNanos, leaseMillis);
                if (hold.leaseRunOut(now)) {
                    log.warn("{} lock {} lost by {}: lease ran out while Redis was unreachable",
                            hold.mode, hold.name, hold.owner);
                    holds.end(hold, HoldEnd.LOST);
                }
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            RwHold hold = batch.get(i);
            boolean renewed = outcome.charAt(i) == '1';
            hold.endRenewal(renewed, sentNanos, leaseMillis);
            if (!renewed) {
                log.warn("{} lock {} lost by {}: no longer held in Redis", hold.mode, hold.name, hold.owner);
                holds.end(hold, HoldEnd.LOST);
            }
        }
    }
}
