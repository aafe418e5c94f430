package io.hasp.internal.connection;

import io.netty.channel.EventLoop;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * When a connection's timeout sweep runs: on its event loop, one timer tick after it was asked for,
 * with at most one sweep pending. Command timeouts are deadlines that this sweep checks, not one timer
 * entry per command: the hot path allocates no timer object and the timer thread does no work per
 * command. Event loop only, but for the timer's hand-over.
 */
final class SweepSchedule {

    private final Timer timer;
    private final EventLoop loop;
    private final long tickNanos;
    private final Runnable onLoop;
    private boolean scheduled;

    SweepSchedule(Timer timer, EventLoop loop, long tickNanos, Runnable sweep) {
        this.timer = timer;
        this.loop = loop;
        this.tickNanos = tickNanos;
        this.onLoop = () -> {
            scheduled = false;
            sweep.run();
        };
    }

    /** Event loop: makes sure a sweep runs one tick from now. */
    void ensure() {
        if (scheduled) {
            return;
        }
        scheduled = true;
        try {
            timer.newTimeout(this::handOver, tickNanos, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException timerStopped) {
            scheduled = false;
        }
    }

    private void handOver(Timeout tick) {
        try {
            loop.execute(onLoop);
        } catch (RejectedExecutionException shutDown) {
            // closing: the connection's close() fails whatever is left
        }
    }
}
