package io.hasp.internal.sync;

import io.hasp.internal.pubsub.MessageListener;
import io.hasp.internal.pubsub.Subscription;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The waiters of one synchronizer in one client, sharing one subscription to its channel. A semaphore's message
 * carries the number of permits free after a release: it wakes the longest-parked waiters whose tries fit in that
 * many permits (a waiter for more stays parked, and does not hold back one for fewer behind it), or leaves as many
 * chances, each for a try that fits in the permits left, for waiters between a failed try and parking, so that no
 * release is missed between the two. Where every message wakes everyone (a latch's: its count reached zero, or was
 * set anew), it wakes every waiter. A resubscription wakes everyone, since messages may have been lost.
 *
 * <p>A semaphore's channel here may also listen on this client's own channel in the semaphore's line
 * ({@link WakeLine}), where a release wakes this process alone, with {@code "<free permits>:<hops>"}; a wake that
 * wakes nobody here while nobody here is between a try and parking is passed on to the next process in line. Such a
 * release marks its announcement on the shared channel (a leading zero), which a channel in line then passes by. Thread-safe: the fields are guarded by {@code this}, and wake actions run
 * outside the monitor.
 */
final class PermitChannel implements MessageListener {

    /** The synchronizer's channel. */
    final String channel;
    /** This client's place in the semaphore's line, or null (a latch, or a topology where nobody stands in line). */
    final WakeLine line;
    /** Whether every message wakes every waiter, whatever it says. */
    private final boolean wakesAll;
    /** Completes with this channel once the server confirmed the subscription. */
    final CompletableFuture<PermitChannel> ready = new CompletableFuture<>();

    private final ArrayDeque<SyncWait> parked = new ArrayDeque<>();
    private int refs;                   // guarded by this
    private int chances;                // guarded by this
    /** The free permits the last message left unclaimed by parked waiters: a chance fits a try of at most this many. */
    private long chanceFits;            // guarded by this
    private boolean closed;             // guarded by this
    private Subscription subscription;  // guarded by this
    private Subscription lineSubscription;  // guarded by this

    PermitChannel(String channel, boolean wakesAll) {
        this(channel, wakesAll, null);
    }

    PermitChannel(String channel, boolean wakesAll, WakeLine line) {
        this.channel = channel;
        this.wakesAll = wakesAll;
        this.line = line;
    }

    /** Adds a waiter; false when the channel is closed (the caller makes a new one). */
    synchronized boolean join() {
        if (closed) {
            return false;
        }
        refs++;
        return true;
    }

    /** Removes a waiter; true when it was the last one, and the channel closed (see {@link #takeSubscription}). */
    synchronized boolean leave() {
        if (closed || refs == 0) {
            return false;
        }
        refs--;
        chances = Math.min(chances, refs);
        if (refs > 0) {
            return false;
        }
        closed = true;
        return true;
    }

    /** The subscription of a closed channel, to end; null when it is not confirmed yet ({@link #subscribed}). */
    synchronized Subscription takeSubscription() {
        Subscription ending = subscription;
        subscription = null;
        return ending;
    }

    /** The subscription of a closed channel's own channel in line, to end first; null when there is none. */
    synchronized Subscription takeLineSubscription() {
        Subscription ending = lineSubscription;
        lineSubscription = null;
        return ending;
    }

    /** Closes the channel because subscribing failed. */
    synchronized void closeFailed() {
        closed = true;
    }

    /**
     * Records the confirmed subscriptions (the one in line null when there is none); false when every waiter left
     * meanwhile (the caller ends them).
     */
    synchronized boolean subscribed(Subscription subscription, Subscription lineSubscription) {
        if (closed) {
            return false;
        }
        this.subscription = subscription;
        this.lineSubscription = lineSubscription;
        return true;
    }

    /**
     * Parks {@code wake} unless a chance is left by a message since the waiter's try, for a try of as many permits as
     * its; false: try again now.
     */
    synchronized boolean parkUnlessChance(SyncWait wake) {
        if (chances > 0 && wake.permits() <= chanceFits) {
            chances--;
            return false;
        }
        parked.addLast(wake);
        return true;
    }

    /** Takes {@code wake} out of the queue (its wait ended another way); true when it was parked. */
    synchronized boolean unpark(SyncWait wake) {
        return parked.remove(wake);
    }

    /**
     * Handles a message: the number of free permits, or a wake-up for all; runs on an event-loop thread. Where this
     * client listens in line, a release's announcement marked as one that woke the line (a leading zero) is passed
     * by: the release woke the processes it served on their own channels.
     */
    @Override
    public void onMessage(String channel, String message) {
        if (wakesAll) {
            wake(Long.MAX_VALUE);
            return;
        }
        if (message.length() > 1 && message.charAt(0) == '0' && listensInLine()) {
            return;
        }
        long free;
        try {
            free = Long.parseLong(message.trim());
        } catch (NumberFormatException e) {
            free = 1;   // not a number: look once
        }
        wake(free);
    }

    /** Messages may have been lost while the subscription was down: everyone looks again. */
    @Override
    public void onResubscribed(String channel) {
        wake(Long.MAX_VALUE);
    }

    /** Whether this channel listens on this client's own channel in line (its subscription was confirmed). */
    private synchronized boolean listensInLine() {
        return lineSubscription != null;
    }

    /** The listener of this client's own channel in line: see the class comment. */
    MessageListener lineListener() {
        return new MessageListener() {
            @Override
            public void onMessage(String channel, String message) {
                onLineMessage(message);
            }

            @Override
            public void onResubscribed(String channel) {
                wake(Long.MAX_VALUE);
            }
        };
    }

    /** A wake in line, {@code "<free permits>:<hops>"}: wakes waiters here as a release's message does, or passes it. */
    void onLineMessage(String message) {
        int colon = message.indexOf(':');
        long free;
        int hops;
        try {
            free = Long.parseLong(colon < 0 ? message.trim() : message.substring(0, colon).trim());
            hops = colon < 0 ? 0 : Integer.parseInt(message.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            free = 1;   // not what a release sends: look once
            hops = 0;
        }
        if (wake(free) > 0 || hops < 1 || line == null) {
            return;
        }
        synchronized (this) {
            if (refs > parked.size()) {
                return;   // a waiter between its try and parking uses the chance this wake left
            }
        }
        line.passOn().accept(hops);
    }

    /** Wakes waiters for {@code free} permits; returns how many were woken. */
    private int wake(long free) {
        int woken = 0;
        long left = free;
        while (left > 0) {
            List<SyncWait> wakes = new ArrayList<>();
            synchronized (this) {
                long unused = left;
                for (Iterator<SyncWait> waiting = parked.iterator(); unused > 0 && waiting.hasNext(); ) {
                    SyncWait wait = waiting.next();
                    if (wait.permits() <= unused) {
                        waiting.remove();
                        wakes.add(wait);
                        unused -= wait.permits();
                    }
                }
                if (unused > 0) {
                    chances = (int) Math.min(refs, chances + Math.min(unused, refs));
                    chanceFits = unused;
                }
            }
            left = 0;
            for (SyncWait wake : wakes) {
                if (wake.woken()) {
                    woken++;
                } else {
                    left += wake.permits();   // its wait had ended: its permits' wake goes to the next waiters
                }
            }
            if (free == Long.MAX_VALUE) {
                break;
            }
        }
        return woken;
    }

    /** Number of parked waiters, for tests and diagnostics. */
    synchronized int parked() {
        return parked.size();
    }
}
