package io.hasp.internal.connection;

import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a lost connection back: armed after the first successful connect, it schedules one
 * reconnect attempt at a time on the shared timer, with exponential backoff from the minimum to
 * the maximum delay, each delay spread by the jitter. A successful attempt (handshake
 * included) resets the backoff. All state is confined to the connection's event loop.
 */
final class ConnectionWatchdog {

    private static final Logger log = LoggerFactory.getLogger(ConnectionWatchdog.class);

    private final Object owner;
    private final Timer timer;
    private final EventLoop loop;
    private final Backoff backoff;
    private final Supplier<CompletableFuture<Void>> attempt;

    private boolean scheduled;   // guarded by the event loop: an attempt is pending or running
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
        this.owner = owner;
        this.timer = timer;
        this.loop = loop;
        this.backoff = new Backoff(min, max, jitter);
        this.attempt = attempt;
    }

    /** Event loop: the connection was lost; schedules a reconnect unless one is already on its way. */
    void connectionLost() {
        if (scheduled || stopped) {
            return;
        }
        scheduled = true;
        long delay = delayNanos(failures);
        log.debug("{}: reconnecting in {} ms (attempt {})", owner, TimeUnit.NANOSECONDS.toMillis(delay), failures + 1);
        try {
            timer.newTimeout(t -> execute(this::reconnect), delay, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException timerStopped) {
            scheduled = false;
        }
    }

    /** Event loop: no more reconnects (the client is closing). */
    void stop() {
        stopped = true;
    }

    private void execute(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException shuttingDown) {
            scheduled = false;
        }
    }

    private void reconnect() {
        if (stopped) {
            scheduled = false;
            return;
        }
        attempt.get().whenComplete((ok, failure) -> {
            scheduled = false;
            if (failure == null) {
                log.info("{}: reconnected after {} failed attempt(s)", owner, failures);
                failures = 0;
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
