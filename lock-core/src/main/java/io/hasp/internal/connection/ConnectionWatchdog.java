package io.hasp.internal.connection;

import io.hasp.HaspListener;
import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.netty.channel.EventLoop;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects a connection and brings it back when lost, one attempt at a time on the shared timer,
 * with exponential backoff from the minimum to the maximum delay, each delay spread by the jitter.
 * {@link #firstConnect} tries until a deadline and reports why it gave up; after a loss,
 * {@link #connectionLost} tries until it succeeds or the connection stops. A successful attempt
 * (handshake included) resets the backoff. All state is confined to the connection's event loop.
 */
final class ConnectionWatchdog {

    private static final Logger log = LoggerFactory.getLogger(ConnectionWatchdog.class);

    private final Object owner;
    private final HaspListener listener;   // null: none
    private final Timer timer;
    private final EventLoop loop;
    private final Backoff backoff;
    private final Supplier<CompletableFuture<Void>> attempt;

    private boolean scheduled;   // guarded by the event loop: an attempt is pending or running
    private Timeout pending;     // the timer entry of the pending attempt, while it waits
    private boolean stopped;
    private int failures;

    /**
     * @param owner the connection, for log messages
     * @param timer the shared timer
     * @param loop the connection's event loop
     * @param min the first delay
     * @param max the largest delay
     * @param jitter 0..1
     * @param attempt connects and handshakes once; completes on the event loop
     */
    ConnectionWatchdog(Object owner, Timer timer, EventLoop loop, Duration min, Duration max, double jitter,
            Supplier<CompletableFuture<Void>> attempt) {
        this(owner, timer, loop, min, max, jitter, attempt, null);
    }

    /** As above, telling {@code listener} (unless null) of each loss and of each reconnect after one. */
    ConnectionWatchdog(Object owner, Timer timer, EventLoop loop, Duration min, Duration max, double jitter,
            Supplier<CompletableFuture<Void>> attempt, HaspListener listener) {
        this.listener = listener;
        this.owner = owner;
        this.timer = timer;
        this.loop = loop;
        this.backoff = new Backoff(min, max, jitter);
        this.attempt = attempt;
    }

    /**
     * Event loop: the first connect. Attempts one at a time, the next after the backoff delay,
     * until one succeeds, one fails with a cause that trying again would not change
     * ({@code hopeless}), or the next would start at or past {@code deadlineNanos}.
     *
     * @param gaveUp makes the failure reported when the deadline ends the attempts, from the
     *     last attempt's cause and the number of attempts made
     * @return completes on the event loop when an attempt succeeded; fails with the hopeless
     *     cause, or with what {@code gaveUp} made
     */
    CompletableFuture<Void> firstConnect(long deadlineNanos, Predicate<Throwable> hopeless,
            BiFunction<Throwable, Integer, Throwable> gaveUp) {
        CompletableFuture<Void> connected = new CompletableFuture<>();
        firstAttempt(1, deadlineNanos, hopeless, gaveUp, connected);
        return connected;
    }

    private void firstAttempt(int number, long deadlineNanos, Predicate<Throwable> hopeless,
            BiFunction<Throwable, Integer, Throwable> gaveUp, CompletableFuture<Void> connected) {
        attempt.get().whenComplete((ok, failure) -> {
            if (failure == null) {
                connected.complete(null);
                return;
            }
            Throwable cause = Futures.unwrap(failure);
            if (hopeless.test(cause)) {
                connected.completeExceptionally(cause);
                return;
            }
            long delay = delayNanos(number - 1);
            if (System.nanoTime() + delay - deadlineNanos >= 0) {
                connected.completeExceptionally(gaveUp.apply(cause, number));
                return;
            }
            log.debug("{}: connect attempt {} failed, retrying in {} ms: {}", owner, number,
                    TimeUnit.NANOSECONDS.toMillis(delay), cause.getMessage());
            try {
                timer.newTimeout(t -> {
                    try {
                        loop.execute(() -> firstAttempt(number + 1, deadlineNanos, hopeless, gaveUp, connected));
                    } catch (RejectedExecutionException shuttingDown) {
                        connected.completeExceptionally(gaveUp.apply(cause, number));
                    }
                }, delay, TimeUnit.NANOSECONDS);
            } catch (IllegalStateException timerStopped) {
                connected.completeExceptionally(gaveUp.apply(cause, number));
            }
        });
    }

    /** Event loop: the connection was lost; schedules a reconnect unless one is already on its way. */
    void connectionLost() {
        if (scheduled || stopped) {
            return;
        }
        scheduled = true;
        tell(false);
        long delay = delayNanos(failures);
        log.debug("{}: reconnecting in {} ms (attempt {})", owner, TimeUnit.NANOSECONDS.toMillis(delay), failures + 1);
        try {
            pending = timer.newTimeout(t -> execute(this::reconnect), delay, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException timerStopped) {
            scheduled = false;
        }
    }

    /**
     * Event loop: the server moved, so the failures so far say nothing of the next attempt: an attempt
     * waiting out its backoff is made after the shortest delay instead.
     */
    void hurry() {
        failures = 0;
        Timeout waiting = pending;
        if (scheduled && waiting != null && waiting.cancel()) {
            scheduled = false;
            connectionLost();
        }
    }

    /** Event loop: no more reconnects (the client is closing). */
    void stop() {
        stopped = true;
    }

    /** Tells the application's listener, if any, that the connection is down or up again. */
    private void tell(boolean up) {
        if (listener != null) {
            try {
                listener.connectionChanged(owner.toString(), up);
            } catch (RuntimeException e) {
                log.warn("the HaspListener's connectionChanged threw; hasp goes on as if it had returned", e);
            }
        }
    }

    private void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException shuttingDown) {
            scheduled = false;
        }
    }

    private void reconnect() {
        pending = null;
        if (stopped) {
            scheduled = false;
            return;
        }
        attempt.get().whenComplete((ok, failure) -> {
            scheduled = false;
            if (failure == null) {
                log.info("{}: reconnected after {} failed attempt(s)", owner, failures);
                failures = 0;
                tell(true);
                return;
            }
            failures++;
            Throwable cause = Futures.unwrap(failure);
            if (failures == 1) {
                log.warn("{}: reconnect failed, retrying with backoff: {}", owner, cause.getMessage());
            } else {
                log.debug("{}: reconnect attempt {} failed: {}", owner, failures, cause.getMessage());
            }
            connectionLost();
        });
    }

    /**
     * The delay before attempt {@code n + 1}: the reconnect {@link Backoff}, min * 2^n capped at
     * max, spread by the jitter.
     *
     * @param n failed attempts so far
     * @return the delay in nanoseconds
     */
    long delayNanos(int n) {
        return backoff.delayNanos(n);
    }
}
