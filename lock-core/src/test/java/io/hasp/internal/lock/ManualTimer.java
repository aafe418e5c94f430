package io.hasp.internal.lock;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link Timer} driven by hand with its own clock, for tests without real time. */
final class ManualTimer implements Timer {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<Task> tasks = new ArrayList<>();

    /** The fake clock, in nanoseconds. */
    long nanoTime() {
        return now.get();
    }

    /** Moves the clock forward and runs every task that became due, in order. */
    void advance(long amount, TimeUnit unit) {
        long target = now.get() + unit.toNanos(amount);
        for (;;) {
            Task due;
            synchronized (this) {
                due = tasks.stream().filter(t -> !t.cancelled && t.deadline <= target)
                        .min(Comparator.comparingLong(t -> t.deadline)).orElse(null);
                if (due == null) {
                    break;
                }
                tasks.remove(due);
                now.set(Math.max(now.get(), due.deadline));
            }
            due.expired = true;
            try {
                due.task.run(due);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        now.set(target);
    }

    /** Number of pending (not cancelled) tasks. */
    synchronized int pending() {
        return (int) tasks.stream().filter(t -> !t.cancelled).count();
    }

    @Override
    public synchronized Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Task t = new Task(task, now.get() + unit.toNanos(delay));
        tasks.add(t);
        return t;
    }

    @Override
    public synchronized Set<Timeout> stop() {
        tasks.clear();
        return Set.of();
    }

    private final class Task implements Timeout {
        final TimerTask task;
        final long deadline;
        volatile boolean cancelled;
        volatile boolean expired;

        Task(TimerTask task, long deadline) {
            this.task = task;
            this.deadline = deadline;
        }

        @Override
        public Timer timer() {
            return ManualTimer.this;
        }

        @Override
        public TimerTask task() {
            return task;
        }

        @Override
        public boolean isExpired() {
            return expired;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean cancel() {
            if (expired || cancelled) {
                return false;
            }
            cancelled = true;
            return true;
        }
    }
}
