package io.hasp.lock;

import io.hasp.client.pubsub.MessageListener;
import io.hasp.client.pubsub.Subscription;
import io.netty.util.Timeout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The waiters of one unlock channel in one client (the waiters of one lock, of every
 * {@link LockKind} that announces its releases there), sharing one subscription. An unlock message ({@code "0"}) wakes one parked waiter, or leaves a permit for a
 * waiter that is between a failed attempt and parking (at most one permit per waiter); a
 * {@code "1"} message or a resubscription wakes them all.
 *
 * <p>Local hand-off: when this client itself frees the lock it wakes one parked waiter at once,
 * without waiting for its own unlock message. That message still wakes (or leaves a permit for)
 * another waiter when it arrives: it cannot be told apart from other unlocks' messages, and it may
 * even arrive before the unlock's reply, so absorbing "the next message" could swallow another
 * unlock's wake-up. The price is at most one extra attempt per local unlock. Thread-safe: the
 * fields are guarded by {@code this}; wake actions run outside the monitor.
 */
final class WaitChannel implements MessageListener {

    final String channel;
    /** Completes with this channel once the server confirmed the subscription. */
    final CompletableFuture<WaitChannel> ready = new CompletableFuture<>();

    private final ArrayDeque<Wake> parked = new ArrayDeque<>();
    private int refs;                   // guarded by this
    private int permits;                // guarded by this
    private boolean closed;             // guarded by this
    private Timeout linger;             // guarded by this
    private Subscription subscription;  // guarded by this

    /** The waiters of pub/sub channel {@code channel}, for example {@code LockKind.channel(name)}. */
    WaitChannel(String channel) {
        this.channel = channel;
    }

    /** Adds a waiter; false when the channel is closed (the caller makes a new one). */
    synchronized boolean join() {
        if (closed) {
            return false;
        }
        refs++;
        if (linger != null) {
            linger.cancel();
            linger = null;
        }
        return true;
    }

    /** Removes a waiter; true when it was the last one (the caller schedules the linger). */
    synchronized boolean leave() {
        if (closed || refs == 0) {
            return false;
        }
        refs--;
        if (refs == 0) {
            permits = 0;
            return true;
        }
        permits = Math.min(permits, refs);
        return false;
    }

    synchronized void linger(Timeout timeout) {
        if (refs == 0 && !closed) {
            if (linger != null) {
                linger.cancel();
            }
            linger = timeout;
        } else {
            timeout.cancel();
        }
    }

    /** Closes the channel if it is still unused and {@code timeout} is its current linger. */
    synchronized boolean closeIfIdle(Timeout timeout) {
        if (closed || refs != 0 || linger != timeout) {
            return false;
        }
        closed = true;
        return true;
    }

    /** Closes the channel because its subscription failed. */
    synchronized void closeFailed() {
        closed = true;
    }

    synchronized void subscribed(Subscription subscription) {
        this.subscription = subscription;
    }

    synchronized Subscription subscription() {
        return subscription;
    }

    /** Parks {@code wake} unless a permit is available; false (permit consumed) means: retry now. */
    synchronized boolean parkUnlessPermit(Wake wake) {
        if (permits > 0) {
            permits--;
            return false;
        }
        parked.addLast(wake);
        return true;
    }

    /** Takes {@code wake} out of the queue (after its timeout claimed it, or its attempt ended). */
    synchronized void unpark(Wake wake) {
        parked.remove(wake);
    }

    /** This client freed the lock: wake one local waiter without waiting for the message. */
    void handOff() {
        Wake wake;
        synchronized (this) {
            if (!ready.isDone() || ready.isCompletedExceptionally()) {
                return;
            }
            wake = pollClaimed();
            if (wake == null) {
                return;
            }
        }
        wake.run();
    }

    /** Handles an unlock message; runs on an event-loop thread. */
    @Override
    public void onMessage(String channel, String message) {
        if (LockKeys.UNLOCK_MESSAGE.equals(message)) {
            Wake wake;
            synchronized (this) {
                wake = pollClaimed();
                if (wake == null) {
                    permits = Math.min(permits + 1, refs);
                    return;
                }
            }
            wake.run();
        } else if (LockKeys.READ_UNLOCK_MESSAGE.equals(message)) {
            wakeAll();
        }
    }

    /** Messages may have been lost while the subscription was down: wake everyone to look again. */
    @Override
    public void onResubscribed(String channel) {
        wakeAll();
    }

    private void wakeAll() {
        List<Wake> wakes = new ArrayList<>();
        synchronized (this) {
            for (Wake wake; (wake = pollClaimed()) != null; ) {
                wakes.add(wake);
            }
            // Waiters that were not parked (between a failed try and parking) look again too.
            permits = Math.max(permits, refs - wakes.size());
        }
        for (Wake wake : wakes) {
            wake.run();
        }
    }

    // guarded by this
    private Wake pollClaimed() {
        for (Wake wake; (wake = parked.pollFirst()) != null; ) {
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
