package io.hasp.internal.sync;

import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition of permits that may wait: tries, joins the semaphore's waiters here when too few are free, tries
 * again once subscribed (no release is missed), then parks until a release announces free permits, a re-check is
 * due, or its deadline passes. At most one try is in flight at a time. Permits granted after the result ended (its
 * deadline passed, or it was cancelled, as the grant landed) are given back at once.
 */
final class PermitAcquisition implements Runnable {

    /**
     * How long a parked waiter waits for a message before it looks again anyway: permits added by something that
     * announces nothing, or a message lost, then cost at most this much.
     */
    static final long RECHECK_MILLIS = 3_000;

    private static final Logger log = LoggerFactory.getLogger(PermitAcquisition.class);

    private final Topology topology;
    private final PermitWaiters waiters;
    private final Timer timer;
    private final String name;
    private final int permits;
    private final boolean bounded;
    private final long deadlineNanos;
    /** What the caller gets: true when the permits were taken, false when the wait ran out. */
    final CompletableFuture<Boolean> result = new CompletableFuture<>();

    private PermitChannel channel;   // guarded by this
    private Timeout recheck;         // guarded by this
    private Timeout deadline;        // guarded by this

    /**
     * An acquisition of {@code permits} of semaphore {@code name} that waits at most {@code waitNanos} (negative:
     * without a limit; 0: a single try).
     */
    PermitAcquisition(Topology topology, PermitWaiters waiters, Timer timer, String name, int permits,
            long waitNanos) {
        this.topology = topology;
        this.waiters = waiters;
        this.timer = timer;
        this.name = name;
        this.permits = permits;
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = System.nanoTime() + Math.max(0, waitNanos);
    }

    /** Starts the acquisition; returns its result. */
    CompletableFuture<Boolean> start() {
        result.whenComplete((taken, error) -> ended());
        if (bounded && remainingNanos() > 0) {
            Timeout t = timer.newTimeout(x -> result.complete(false), remainingNanos(), TimeUnit.NANOSECONDS);
            synchronized (this) {
                deadline = t;
            }
            if (result.isDone()) {
                t.cancel();
            }
        }
        attempt();
        return result;
    }

    private long remainingNanos() {
        return deadlineNanos - System.nanoTime();
    }

    private void attempt() {
        if (result.isDone()) {
            return;
        }
        Futures.sent(() -> SemaphoreScripts.acquire(topology, name, permits)).whenComplete(this::onReply);
    }

    private void onReply(Boolean taken, Throwable error) {
        if (error != null) {
            // The script may have run (its reply was lost): the caller hears the Redis error, not a refusal.
            result.completeExceptionally(Futures.unwrap(error));
            return;
        }
        if (taken) {
            if (!result.complete(true)) {
                giveBack();
            }
            return;
        }
        if (result.isDone()) {
            return;
        }
        if (bounded && remainingNanos() <= 0) {
            result.complete(false);
            return;
        }
        PermitChannel joined;
        synchronized (this) {
            joined = channel;
        }
        if (joined == null) {
            waiters.join(SemaphoreScripts.channel(name)).whenComplete(this::onJoined);
        } else {
            park(joined);
        }
    }

    private void onJoined(PermitChannel joined, Throwable error) {
        if (error != null) {
            result.completeExceptionally(Futures.unwrap(error));
            return;
        }
        synchronized (this) {
            if (!result.isDone()) {
                channel = joined;
                joined = null;
            }
        }
        if (joined != null) {   // it ended meanwhile: leave at once
            waiters.leave(joined);
            return;
        }
        attempt();
    }

    private void park(PermitChannel joined) {
        if (!joined.parkUnlessChance(this)) {
            attempt();   // a release came since this try
            return;
        }
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(RECHECK_MILLIS);
        if (bounded) {
            delayNanos = Math.min(delayNanos, Math.max(1, remainingNanos()));
        }
        Timeout t = timer.newTimeout(x -> {
            if (joined.unpark(this)) {
                attempt();
            }
        }, delayNanos, TimeUnit.NANOSECONDS);
        synchronized (this) {
            recheck = t;
        }
        if (result.isDone()) {
            joined.unpark(this);
            t.cancel();
        }
    }

    /** Woken by a release here: tries again. */
    @Override
    public void run() {
        Timeout t;
        synchronized (this) {
            t = recheck;
            recheck = null;
        }
        if (t != null) {
            t.cancel();
        }
        attempt();
    }

    /** The result completed: stops the timers and leaves the waiters. */
    private void ended() {
        PermitChannel joined;
        Timeout r;
        Timeout d;
        synchronized (this) {
            joined = channel;
            channel = null;
            r = recheck;
            d = deadline;
        }
        if (r != null) {
            r.cancel();
        }
        if (d != null) {
            d.cancel();
        }
        if (joined != null) {
            joined.unpark(this);
            waiters.leave(joined);
        }
    }

    private void giveBack() {
        Futures.sent(() -> SemaphoreScripts.release(topology, name, permits)).whenComplete((free, error) -> {
            if (error != null) {
                log.warn("semaphore {}: {} permit(s) granted after the acquisition ended could not be given back: {}",
                        name, permits, error.toString());
            }
        });
    }
}
