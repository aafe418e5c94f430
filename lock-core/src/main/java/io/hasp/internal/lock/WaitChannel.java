package io.hasp.internal.lock;

import io.hasp.internal.pubsub.MessageListener;
import io.hasp.internal.pubsub.Subscription;
import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The waiters of one unlock channel in one client (the waiters of one lock, of every {@link LockKind} that announces
 * its releases there), sharing one subscription. An unlock message ({@code "0"}) wakes one parked waiter, or leaves a
 * permit for a waiter between a failed attempt and parking (at most one per waiter); a {@code "1"} message or a
 * resubscription wakes them all.
 *
 * <p>Turns: when the kind {@linkplain LockKind#turnChannel takes turns}, the subscription is to this client's own
 * turn channel, and a message there (or a release of this client that kept the turn for it,
 * {@link ReleaseOutcome#FREED_OWN_TURN}) says that this process's turn came: it wakes one waiter as an unlock
 * message does, or, when nobody here waits any more, the turn is passed on. The lock's shared channel, where clients
 * that take no turns announce their releases, is heard too once a waiter needs it ({@link SharedListening}). A grant
 * heard there ({@link Grant}: another process's release gave the lock to this process's heir) completes the parked
 * acquisition it names ({@link #claimGranted}), or is given back ({@link UnusedTurns}).
 *
 * <p>Local hand-off, for a kind that takes no turns: when this client frees the lock it wakes one parked waiter at
 * once, without waiting for its own unlock message, which still wakes (or leaves a permit for) another waiter: it
 * cannot be told apart from other unlocks' messages. The price is at most one extra attempt per local unlock.
 *
 * <p>Hand-over: a release of this client whose kind {@linkplain LockKind#handsOver() hands over} may claim the
 * longest-parked waiter of the same kind and lock ({@link #claimSuccessor}) and give it the lock in the release
 * script itself: one script instead of an unlock, a wake-up and an acquire. So that other clients are not starved,
 * at most {@link #MAX_HAND_OVERS} hand-overs follow each other; the next release then frees the lock (and gives the
 * turn to the next process in line), and while clients that take no turns listen, new local acquisitions let them
 * go first for a short {@linkplain YieldWindow window}. Thread-safe: the fields are guarded by {@code this}; wake
 * actions run outside the monitor.
 *
 * <p>The subscription's users, the parked waiters, the permits and the hand-overs of one lock are decided under one
 * monitor, because a wake, a hand-over's claim and the channel's close must never interleave.
 */
final class WaitChannel implements MessageListener {

    /** Most hand-overs in a row before a release frees the lock for every client's waiters. */
    static final int MAX_HAND_OVERS = 16;
    /** How long, after such a release, new local acquisitions let other clients' waiters go first. */
    static final long YIELD_NANOS = 5_000_000L;

    /** The lock's shared unlock channel (the key of this channel among a client's). */
    final String channel;
    /** This client's turn channel for the lock, or null when its kind takes no turns. */
    final String turnChannel;
    /** Completes with this channel once the server confirmed the subscription (to the turn channel, if any). */
    final CompletableFuture<WaitChannel> ready = new CompletableFuture<>();
    /** Passes on a turn, and gives back a grant, that nobody here takes; null when the kind takes no turns. */
    private final UnusedTurns unused;
    /** With a turn channel: the lock's shared channel, once a waiter here needs it. */
    final SharedListening shared = new SharedListening();

    private final ParkedWakes parked = new ParkedWakes();   // guarded by this
    private int refs;                   // guarded by this
    private boolean closed;             // guarded by this
    private boolean leaving;            // guarded by this; the client closes: grants are declined, never taken
    private Timeout linger;             // guarded by this
    private Subscription subscription;  // guarded by this
    private int handOvers;              // guarded by this; hand-overs since the lock was last freed
    private final YieldWindow yielding = new YieldWindow();   // guarded by this
    private Successor heldBy;         // guarded by this; the local owner the lock was last handed to
    /** With a turn channel: this process's place in the lock's line. */
    final LinePlace place = new LinePlace();

    /** The waiters of pub/sub channel {@code channel}, for example {@code LockKind.channel(name)}. */
    WaitChannel(String channel) {
        this(channel, null, null);
    }

    /**
     * The waiters of the lock whose shared channel is {@code channel}, subscribed to {@code turnChannel} (this
     * client's turns) when not null; {@code unused} passes on a turn (gives back a grant) that nobody here takes.
     */
    WaitChannel(String channel, String turnChannel, UnusedTurns unused) {
        this.channel = channel;
        this.turnChannel = turnChannel;
        this.unused = unused;
    }

    /** The channel subscribed to first: the turn channel, or the shared channel when the kind takes no turns. */
    String firstChannel() {
        return turnChannel != null ? turnChannel : channel;
    }

    /** Whether waiters here hear the lock's shared channel (always, when the kind takes no turns). */
    boolean listensShared() {
        return turnChannel == null || shared.listening();
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
        parked.capPermits(refs);
        return refs == 0;
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

    synchronized void closeFailed() {   // its subscription failed
        closed = true;
    }

    synchronized void subscribed(Subscription subscription) {
        this.subscription = subscription;
    }

    synchronized Subscription subscription() {
        return subscription;
    }

    /**
     * Parks {@code wake} unless a permit is available; false (permit consumed) means: retry now. A
     * wake already claimed (its acquisition ended as it was parking) is neither parked nor given a
     * permit: the permit stays for a live waiter.
     */
    synchronized boolean parkUnlessPermit(Wake wake) {
        return wake.claimed() || parked.parkUnlessPermit(wake);
    }

    /** Takes {@code wake} out of the queue (after its timeout claimed it, or its attempt ended). */
    synchronized void unpark(Wake wake) {
        parked.remove(wake);
    }

    /**
     * Claims, for a release by {@code releaser} of lock {@code name} of {@code kind}, the longest-parked acquisition
     * of that kind and lock by another owner to hand the lock to. Null when there is none, or after
     * {@link #MAX_HAND_OVERS} hand-overs in a row (the release then frees the lock and gives the turn on).
     */
    synchronized Wake claimSuccessor(LockKind kind, String name, LockOwner releaser) {
        if (!ready.isDone() || ready.isCompletedExceptionally()) {
            return null;
        }
        Wake wake = null;
        if (handOvers < MAX_HAND_OVERS) {
            wake = parked.claimForHandOver(a -> a.kind().equals(kind) && a.name().equals(name)
                    && !a.owner().equals(releaser));
        }
        if (wake == null) {
            handOvers = 0;
        }
        return wake;
    }

    /** For {@code grant}: claims the parked acquisition of the owner and lease granted (it holds the lock); or null. */
    synchronized Successor claimGranted(Grant grant) {
        Wake wake = leaving ? null : parked.claimForHandOver(a -> a.kind().handsOver()
                && a.leaseMillis() == grant.leaseMillis() && a.owner().field().equals(grant.owner()));
        if (wake == null) {
            return null;
        }
        heldBy = wake.successor;
        handOvers = 0;
        place.ended();
        return wake.successor;
    }

    /** For a declined grant: claims the longest-parked waiter that takes hand-overs; else {@link #leftForATry}. */
    synchronized Wake claimSuccessorForGrant() {
        Wake wake = leaving ? null : parked.claimForHandOver(a -> a.kind().handsOver());
        if (wake == null) {
            leftForATry();
        }
        return wake;
    }


    /** A claimed hand-over took place: the lock went to {@code to}, an owner of this client. */
    synchronized void handedOver(Successor to) {
        handOvers++;
        heldBy = to;
    }

    /**
     * How long, in milliseconds, a new acquisition of lock {@code name} of {@code kind} by
     * {@code asking} parks here before its first try; 0: it tries at once.
     * <ul>
     *   <li>Right after this client freed the lock on everyone's turn: the rest of that short window,
     *       so that other clients' waiters get their turn ({@link #handOff}).</li>
     *   <li>While another owner of this client holds the lock by a hand-over: that holder's lease. An
     *       attempt would be bound to fail; the holder's unlock hands the lock over or frees it (waking
     *       a waiter here), and the lease bounds the wait.</li>
     * </ul>
     */
    synchronized long parkBeforeFirstTry(LockKind kind, String name, LockOwner asking, long nowNanos) {
        long yieldNanos = yielding.left(nowNanos);
        if (yieldNanos > 0) {
            return Math.max(1, TimeUnit.NANOSECONDS.toMillis(yieldNanos));
        }
        if (turnChannel != null && kind.standsInLine()) {
            long untilTurn = place.arrived(nowNanos);
            if (untilTurn > 0) {
                return untilTurn;
            }
        }
        return localHoldLease(kind, name, asking);
    }

    /**
     * Whether a release of this process keeps it a place in the lock's line: 2 when waiters here go on waiting;
     * 1 when acquisitions here came back after earlier releases and most likely come back again (a place when
     * the turn goes to another process, so that they wait for the turn instead of trying first); else 0.
     */
    synchronized int staysInLine() {
        return turnChannel == null ? 0 : place.stays(refs);
    }

    private long localHoldLease(LockKind kind, String name, LockOwner asking) {
        Successor holder = heldBy;
        if (holder == null || !holder.kind().equals(kind) || !holder.name().equals(name)
                || holder.owner().equals(asking)) {
            return 0;
        }
        return holder.leaseMillis();
    }

    /** An unlock by {@code owner} ended (or may have ended) its hold: it no longer holds the lock. */
    synchronized void released(LockOwner owner) {
        if (heldBy != null && heldBy.owner().equals(owner)) {
            heldBy = null;
        }
    }

    /**
     * {@code owner}'s hold ended without an unlock (lost, expired): when it held the lock by a
     * hand-over, wake one parked waiter to look again rather than wait out its lease.
     */
    void holdLost(LockOwner owner) {
        Wake wake;
        synchronized (this) {
            if (heldBy == null || !heldBy.owner().equals(owner)) {
                return;
            }
            heldBy = null;
            wake = parked.pollClaimed();
            if (wake == null) {
                return;
            }
        }
        wake.run();
    }

    /** A claimed hand-over did not take place; the next release tries again from the start. */
    synchronized void handOverFailed() {
        handOvers = 0;
    }

    /**
     * This client freed the lock of a kind that takes no turns: wake one local waiter without waiting for the
     * message.
     *
     * @param nowNanos the time of the release's reply
     */
    void handOff(long nowNanos) {
        Wake wake;
        synchronized (this) {
            if (!ready.isDone() || ready.isCompletedExceptionally()) {
                return;
            }
            wake = parked.pollClaimed();
            if (wake == null) {
                return;
            }
        }
        wake.run();
    }

    /**
     * A release of this client freed the lock with {@code outcome}: a turn kept for this process wakes one waiter
     * here ({@link ReleaseOutcome#FREED_OWN_TURN}); while others listen on the shared channel, new local
     * acquisitions let them go first ({@link ReleaseOutcome#FREED_FOR_ALL}); when the turn went to another
     * process ({@link ReleaseOutcome#FREED_TURN_ELSEWHERE}), nobody here is woken, and this process stands in line
     * when the release kept it a place; otherwise (a kind that takes no turns) {@link #handOff}.
     *
     * @param nowNanos the time of the release's reply
     * @param stayed what the release asked for this process's place in line ({@link #staysInLine})
     * @param turnsAtSend {@link LinePlace#turns} when the release was sent
     */
    void freed(ReleaseOutcome outcome, long nowNanos, int stayed, long turnsAtSend) {
        if (turnChannel == null || outcome == ReleaseOutcome.ENDED) {
            handOff(nowNanos);
            return;
        }
        synchronized (this) {
            if (stayed > 0 && outcome == ReleaseOutcome.FREED_TURN_ELSEWHERE) {
                place.keptBy(nowNanos, turnsAtSend);
            }
            if (outcome == ReleaseOutcome.FREED_FOR_ALL) {
                yielding.openUntil(nowNanos + YIELD_NANOS);
            }
        }
        if (outcome == ReleaseOutcome.FREED_OWN_TURN) {
            turnCame();
        }
    }

    /** This process's turn came: wakes one waiter, leaves a permit for one between tries, or passes the turn on. */
    private void turnCame() {
        Wake wake;
        boolean pass = false;
        synchronized (this) {
            heldBy = null;
            wake = parked.pollClaimed();
            if (wake != null) {
                place.ended();
            } else {
                pass = !leftForATry();
            }
        }
        if (wake != null) {
            wake.run();
        } else if (pass && unused != null) {
            unused.pass();
        }
    }

    /**
     * Guarded by this. A turn (or grant) came that no parked waiter takes: when a waiter is between tries, it gets a
     * permit to look at once (true); else the place is used up and acquisitions here are not expected back (false).
     */
    private boolean leftForATry() {
        if (refs > 0 && !closed) {
            parked.permit(refs);
            place.ended();
            return true;
        }
        place.unused();
        return false;
    }

    /** Handles an unlock message, a turn or a grant; runs on an event-loop thread. */
    @Override
    public void onMessage(String channel, String message) {
        if (turnChannel != null && turnChannel.equals(channel)) {
            if (LockKeys.UNLOCK_MESSAGE.equals(message)) {
                turnCame();
            } else if (unused != null) {
                unused.granted(this, Grant.parse(message));
            }
            return;
        }
        synchronized (this) {
            heldBy = null;  // the lock was freed: whoever holds it now, nobody local is known to
        }
        if (LockKeys.UNLOCK_MESSAGE.equals(message)) {
            Wake wake;
            synchronized (this) {
                wake = parked.pollClaimed();
                if (wake == null) {
                    parked.permit(refs);
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
            heldBy = null;
            place.ended();
            for (Wake wake; (wake = parked.pollClaimed()) != null; ) {
                wakes.add(wake);
            }
            // Waiters that were not parked (between a failed try and parking) look again too.
            parked.permitAtLeast(refs - wakes.size());
        }
        for (Wake wake : wakes) {
            wake.run();
        }
    }


    /**
     * The client closes: leaves the line ({@link UnusedTurns#leave}) and declines every grant from now on; null when
     * the kind takes no turns. The owner last handed the lock here counts as holding (its hold may be unrecorded).
     */
    CompletableFuture<Void> leaveLine() {
        if (unused == null) {
            return null;
        }
        Successor taken;
        synchronized (this) {
            leaving = true;
            taken = heldBy;
        }
        return unused.leave(taken == null ? null : taken.owner());
    }

    /** Number of parked waiters, for tests and diagnostics. */
    synchronized int parked() {
        return parked.size();
    }

    /** Number of waiters, for tests and diagnostics. */
    synchronized int waiters() {
        return refs;
    }
}
