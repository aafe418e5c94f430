package io.hasp.lock.rw;

import io.hasp.client.pubsub.MessageListener;
import io.hasp.client.pubsub.Subscription;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The waiters (readers and writers) of one read/write lock in one client, sharing one
 * subscription to {@code redisson_rwlock:{<name>}}. Message {@code "0"} (the last read hold
 * ended) wakes one parked waiter, or leaves a permit for a waiter that is between a failed
 * attempt and parking; message {@code "1"} (a write hold ended) and a resubscription wake them
 * all, so readers enter together. Thread-safe: fields are guarded by {@code this}; wake actions
 * run outside the monitor.
 */
final class RwWaitChannel implements MessageListener {

    final String name;
    final String channel;
    /** Completes with this channel once the server confirmed the subscription. */
    final CompletableFuture<RwWaitChannel> ready = new CompletableFuture<>();

    private final ArrayDeque<RwWake> parked = new ArrayDeque<>();
    private int refs;                   // guarded by this
    private int permits;                // guarded by this
    private boolean closed;             // guarded by this
    private Subscription subscription;  // guarded by this

    RwWaitChannel(String name) {
        this.name = name;
        this.channel = RwKeys.channel(name);
    }

    /** Adds a waiter; false when the channel is closed (the caller makes a new one). */
    synchronized boolean join() {
        if (closed) {
            return false;
        }
        refs++;
        return true;
    }

    /** Removes a waiter; true when it was the last one: the channel is closed then. */
    synchronized boolean leave() {
        if (closed || refs == 0) {
            return false;
        }
        refs--;
        permits = Math.min(permits, refs);
        if (refs == 0) {
            closed = true;
            return true;
        }
        return false;
    }

    synchronized void close() {
        closed = true;
    }

    synchronized void subscribed(Subscription subscription) {
        this.subscription = subscription;
    }

    synchronized Subscription subscription() {
        return subscription;
    }

    /** Parks {@code wake} unless a permit is available; false (permit consumed) means: retry now. */
    synchronized boolean parkUnlessPermit(RwWake wake) {
        if (permits > 0) {
            permits--;
            return false;
        }
        parked.addLast(wake);
        return true;
    }

    /** Takes {@code wake} out of the queue. */
    synchronized void unpark(RwWake wake) {
        parked.remove(wake);
    }

    /** Handles a release message; runs on an event-loop thread. */
    @Override
    public void onMessage(String channel, String message) {
        if (RwKeys.UNLOCK_MESSAGE.equals(message)) {
            RwWake wake;
            synchronized (this) {
                wake = pollClaimed();
                if (wake == null) {
                    permits = Math.min(permits + 1, refs);
                    return;
                }
            }
            wake.run();
        } else if (RwKeys.READ_UNLOCK_MESSAGE.equals(message)) {
            wakeAll();
        }
    }

    /** Messages may have been lost while the subscription was down: everyone looks again. */
    @Override
    public void onResubscribed(String channel) {
        wakeAll();
    }

    private void wakeAll() {
        List<RwWake> wakes = new ArrayList<>();
        synchronized (this) {
            for (RwWake wake; (wake = pollClaimed()) != null; ) {
                wakes.add(wake);
            }
            // Waiters between a failed attempt and parking look again too.
            permits = Math.max(permits, refs - wakes.size());
        }
        for (RwWake wake : wakes) {
            wake.run();
        }
    }

    // guarded by this
    private RwWake pollClaimed() {
        for (RwWake wake; (wake = parked.pollFirst()) != null; ) {
            if (wake.claim()) {
                return wake;
            }
        }
        return null;
    }

    /** Number of waiters, for tests and diagnostics. */
    synchronized int waiters() {
        return refs;
    }
}
