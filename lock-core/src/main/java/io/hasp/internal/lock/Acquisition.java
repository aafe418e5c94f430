package io.hasp.internal.lock;

import io.hasp.RedisClosedException;
import io.hasp.RedisException;
import io.hasp.ReplicaAcksException;
import io.hasp.internal.Futures;
import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One attempt to acquire a lock of one {@link LockKind} for one owner, with its deadline, its place among the lock's
 * waiters and its result. It runs entirely on callbacks (replies, unlock messages, the timer): waiting costs no thread.
 *
 * <p>The algorithm is told step by step in {@link AcquisitionStep}. The result future completes with {@code true}
 * (acquired), {@code false} (deadline passed; a {@link ReplicaAcksException} when the last grant was not confirmed) or
 * an exception, on an event-loop or timer thread. Completing it ends the acquisition from whatever step it is in. When
 * the caller completes or cancels it first (deadline, interrupt, cancel) while an acquire lands, the acquired hold is
 * given back, and an acquire with an unknown outcome is rolled back; until then, the owner's next acquisition of the
 * hold waits ({@link UnsettledAcquires}).
 */
final class Acquisition extends Successor implements Stranded {

    /** How long to wait for a holder that set no expiry before looking again. */
    private static final long NO_TTL_POLL_MILLIS = 1_000;
    /** {@link #unknownTarget} of a waiter whose only trace is its place in line: give it back, undo no grant. */
    private static final int PLACED = -1;

    private final LockContext context;
    private final String channelName;
    private final HoldKey holdKey;
    private final boolean watchdog;
    private final boolean bounded;
    private final boolean waits;  // false: a single try (no wait time), which takes no place in a line
    private final long deadlineNanos;
    /** The blocking call this acquisition serves (its thread parks on the result), or null. */
    private final CallerWaits.Call caller;
    private final long callerNumber;
    private final AcquisitionResult result = new AcquisitionResult(this);
    /** The lock-shaped view of {@link #result}, when started by {@link #startLocking}; else null. */
    private volatile LockedFuture locked;

    private AcquisitionStep step = AcquisitionStep.DECIDING;  // guarded by this
    private WaitChannel channel;        // guarded by this; joined (or being joined), until finished
    private Wake wake;                  // guarded by this; the last park's
    private Timeout deadlineTimer;      // guarded by this
    private int unknownTarget;          // guarded by this; an unknown outcome's target, PLACED, or 0: nothing to undo
    private int failedSends;            // guarded by this; since the last answer, for the retry backoff
    volatile ReplicaAcksException unconfirmed;  // written under this; the last send's, until an answer
    private boolean ended;              // guarded by this; the result is completing or complete (see end)
    private boolean answerPending;      // guarded by this; from a send until its reply has been acted on
    private boolean wakeCancelled;      // guarded by this; the end took the last park's wake back
    private boolean handOverReported;   // guarded by this; a release that claimed it reported how that ended
    private boolean handOverUnsettled;  // guarded by this; it ended while a claimed hand-over had not reported

    /** {@code leaseMillis}: the lease, or -1 for the watchdog; {@code waitNanos}: how long to try, -1: no deadline. */
    Acquisition(LockContext context, LockKind kind, String name, LockOwner owner, long leaseMillis, long waitNanos) {
        super(kind, name, owner, leaseMillis < 0 ? context.watchdogLeaseMillis : leaseMillis);
        this.context = context;
        this.channelName = kind.waitChannel(name, owner);
        this.holdKey = HoldKey.of(kind, name, owner);
        this.watchdog = leaseMillis < 0;
        this.bounded = waitNanos >= 0;
        this.waits = waitNanos != 0;
        this.deadlineNanos = bounded ? context.nanoTime() + waitNanos : 0;
        this.caller = CallerWaits.current();
        this.callerNumber = caller == null ? 0 : caller.number();
    }

    /**
     * Starts the attempt (with no deadline) and returns a future that completes with null once the lock is held, or
     * fails as the result would; cancelling it cancels the attempt. It follows the result without a dependent stage.
     */
    CompletableFuture<Void> startLocking() {
        LockedFuture view = new LockedFuture(result);
        locked = view;
        start();
        return view;
    }

    /** Starts the attempt; returns its result future (see the class comment). */
    CompletableFuture<Boolean> start() {
        if (bounded && remainingNanos() > 0) {
            // A zero wait makes exactly one attempt: its reply decides, not a timer.
            Timeout timer = context.schedule(() -> result.complete(false), remainingNanos(), TimeUnit.NANOSECONDS);
            synchronized (this) {
                deadlineTimer = timer;
            }
        }
        if (!context.unsettled.deferred(holdKey, this)) {
            begin();
        }
        return result;
    }

    /** Starts sending once no acquire of the hold has an unknown outcome and no unlock of it lacks its answer. */
    void begin() {
        if (context.unlocksInFlight.deferred(holdKey.ordering(owner), this)) {
            return;
        }
        // Already waiting here: join its waiters (no network call), so that a failed first attempt parks at once.
        WaitChannel ready = bounded && remainingNanos() <= 0 ? null : context.waiters.joinIfReady(channelName);
        if (ready != null) {
            if (!adopt(ready)) {
                return;
            }
            long parkMillis = ready.parkBeforeFirstTry(kind, name, owner, context.nanoTime());
            if (parkMillis > 0) {
                park(ready, parkMillis);
                return;
            }
        }
        attempt();
    }

    /** The step it is in now (the result may have completed meanwhile), for tests and diagnostics. */
    synchronized AcquisitionStep step() {
        return step;
    }

    private long remainingNanos() {
        return deadlineNanos - context.nanoTime();
    }

    /** Step: {@code SENDING}. Sends the acquire script, unless the result completed. */
    private void attempt() {
        synchronized (this) {
            if (ended) {
                return;
            }
            step = AcquisitionStep.SENDING;
            answerPending = true;
        }
        int target = context.holds.count(holdKey) + 1;
        long sentNanos = context.nanoTime();
        Object sent = LockEvents.attemptSent(context, this);   // its span, under the acquisition's, when heard
        CompletableFuture<AcquireOutcome> reply;
        try {
            reply = kind.acquireInLine(context.topology, name, owner, leaseMillis, target, context.inLine(), waits,
                    context.heirStamp(waits, channelName));
        } catch (RuntimeException e) {
            // Not sent: the outcome is known. (Not Futures.sent: its lambda costs an allocation per acquire.)
            reply = CompletableFuture.failedFuture(e);
        }
        Futures.whenDone(reply, (outcome, error) -> {
            LockEvents.attemptAnswered(context, this, sent, outcome, error);
            onReply(target, sentNanos, outcome, error);
        });
    }

    private void onReply(int target, long sentNanos, AcquireOutcome outcome, Throwable error) {
        if (Unconfirmed.busy(error) != null) {   // "held by another" wrote nothing replicas must confirm
            outcome = Unconfirmed.busy(error);
            error = null;
        }
        // An answer tells whatever an earlier send whose reply was lost did; a place in line it gave stays to give
        // back (marked before the monitor, so that the rollback the end may send at once settles it).
        boolean placed = error == null && waits && kind.queuesWaiters() && !outcome.acquired() && !outcome.lost();
        if (placed) {
            context.unsettled.markPlaced(holdKey);
        }
        synchronized (this) {
            step = AcquisitionStep.DECIDING;
            if (error == null) {
                unknownTarget = placed ? PLACED : 0;
                failedSends = 0;
                if (unconfirmed != null) {
                    unconfirmed = null;
                }
            }
        }
        if (error != null) {
            onError(target, Futures.unwrap(error));
            return;
        }
        if (outcome.acquired()) {
            onAcquired(target, sentNanos, outcome.token());
            answered();   // after onAcquired: the owner's next acquisition waits for a give-back it started
            context.unsettled.settle(holdKey);
            return;
        }
        answered();
        if (!placed) {
            context.unsettled.settle(holdKey);
        }
        if (outcome.lost()) {   // a re-entry of a hold that ended unnoticed: it ends here, the re-entry fails
            result.completeExceptionally(context.holds.lostOnReentry(holdKey, context.nanoTime()));
        } else {
            onHeld(outcome.remainingMillis(), !outcome.inLine());
        }
    }

    /** Records the hold ({@code token}: its fencing token, 0 for none) and completes the result. */
    private void onAcquired(int target, long sentNanos, long token) {
        synchronized (this) {
            unknownTarget = 0;
        }
        Hold hold = context.holds.acquired(holdKey, owner, target, leaseMillis, watchdog, sentNanos);
        if (token > 0) {
            hold.token(token);
        }
        context.renewer.start();  // renews watchdog holds, and sweeps expired ones of the others
        if (!result.grant()) {
            // The caller gave up (deadline, cancel, interrupt) as this acquire landed: give it back.
            Unlock.start(context, kind, name, owner);
        }
    }

    /**
     * Step: {@code BACKING_OFF} when the error is retryable and time is left; else the result ends. {@code target}:
     * the hold count the failed acquire asked for (it may have taken effect), or 0: nothing was sent (no subscription).
     */
    private void onError(int target, Throwable cause) {
        if (!(cause instanceof RedisException)) {
            answered();   // the kind's own answer (or a call that was never sent): the outcome is known
            result.completeExceptionally(cause);
            return;
        }
        int failures;
        if (target > 0) {
            context.unsettled.mark(holdKey);
        }
        synchronized (this) {
            unknownTarget = target > 0 ? target : unknownTarget;
            unconfirmed = cause instanceof ReplicaAcksException shortfall ? shortfall : null;
            failures = failedSends++;
            answerPending = false;   // an unknown outcome is marked above
            if (!result.isDone()) {
                step = AcquisitionStep.BACKING_OFF;
            }
        }
        // Sent again after the command backoff, as an unlock is; the deadline's timer ends a wait that runs out.
        long budgetNanos = bounded ? deadlineNanos : context.nanoTime() + Long.MAX_VALUE / 2;
        if (result.isDone() || !context.resendLater(this, this::attempt, cause, failures, budgetNanos)) {
            if (!Futures.retryable(cause) || cause instanceof ReplicaAcksException) {
                result.completeExceptionally(cause);   // a grant replicas did not confirm is no grant: say why
            } else if (bounded && remainingNanos() <= 0) {
                result.complete(false);
            } else {
                result.completeExceptionally(new RedisClosedException("the hasp client is closed (" + this + ")"));
            }
            rollbackIfUnknown();
        }
    }

    /**
     * The lock is held by another owner (or kept for another process's turn): park for at most {@code ttl} ms (-1: the
     * holder set no expiry), once this acquisition has joined the lock's waiters here, and hears the lock's shared
     * channel when {@code shared} (a holder that takes no turns announces its release only there).
     */
    private void onHeld(long ttl, boolean shared) {
        if (bounded && remainingNanos() <= 0) {
            result.complete(false);
        }
        WaitChannel ch;
        synchronized (this) {
            ch = channel;
        }
        boolean joining = ch == null || (shared && !ch.listensShared());
        synchronized (this) {
            if (joining && !result.isDone()) {
                step = AcquisitionStep.JOINING;
            }
        }
        if (result.isDone()) {   // it ended as the answer came: give back the place in line the answer gave
            rollbackIfUnknown();
            return;
        }
        // From here the caller's thread waits for another holder, not for round trips of its own.
        CallerWaits.waitsForHolder(caller, callerNumber);
        if (!joining) {
            park(ch, ttl);
        } else if (ch != null) {
            context.waiters.listenShared(ch).whenComplete((c, error) -> onJoined(ch, error, false));
        } else if (!stranded()) {
            String turns = context.turnChannel(kind, name);
            context.waiters.join(channelName, turns, turns == null ? null : UnusedTurns.of(context, kind, name), shared)
                    .whenComplete((joined, error) -> onJoined(joined, error, true));
        }
    }

    /** Subscribed ({@code fresh}: this acquisition joined {@code joined} now, and adopts it), or not: sends again. */
    private void onJoined(WaitChannel joined, Throwable error, boolean fresh) {
        if (error != null) {
            synchronized (this) {
                step = AcquisitionStep.DECIDING;
            }
            // Could not subscribe (connection trouble): look again after a backoff, never spin.
            onError(0, Futures.unwrap(error));
            return;
        }
        if (fresh ? adopt(joined) : !result.isDone()) {
            attempt();
        }
    }

    /** Makes {@code joined} this acquisition's channel; when the result already completed, leaves it, false. */
    private boolean adopt(WaitChannel joined) {
        synchronized (this) {
            if (!result.isDone()) {
                channel = joined;
                return true;
            }
        }
        context.waiters.leave(joined);
        return false;
    }

    /** Step: {@code PARKED} on {@code ch} for at most {@code ttl} ms, or at once {@code SENDING} on a permit. */
    private void park(WaitChannel ch, long ttl) {
        long waitMillis = ttl >= 0 ? Math.max(1, ttl) : NO_TTL_POLL_MILLIS;
        if (bounded) {
            waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos())));
        }
        Wake w = new Wake(this::attempt, this);
        synchronized (this) {
            if (ended) {
                return;
            }
            step = AcquisitionStep.PARKED;
            wake = w;
            handOverReported = false;   // a release of this client may claim this wake for a hand-over
        }
        CallerWaits.waitsForHolder(caller, callerNumber);
        if (stranded()) {
            return;
        }
        if (!ch.parkUnlessPermit(w)) {
            attempt();
            return;
        }
        w.timeoutAfter(context, ch, waitMillis);
    }

    /**
     * A release of this client that claimed this parked acquisition ended: it holds the lock when {@code handedOver};
     * else it sends again, first marking a possible hand-over for rollback when the release's outcome is unknown.
     */
    @Override
    void handOverEnded(boolean handedOver, Throwable error, long sentNanos) {
        if (handedOver) {
            LockEvents.handedOver(context, this);
            onAcquired(1, sentNanos, 0);  // kinds that issue tokens never hand over
        } else if (error != null) {
            // The hand-over may have taken place: an acquire with target 1 is harmless if it did.
            context.unsettled.mark(holdKey);
            synchronized (this) {
                unknownTarget = 1;
            }
            rollbackIfUnknown();   // if the result is done; else the next attempt's answer settles it
        }
        if (reported() && error == null) {   // ended before this report marked it; else the rollback settles it
            context.unsettled.settle(holdKey);
        }
        if (!handedOver) {
            attempt();
        }
    }

    /** Registers it as waiting for the timer or a message ({@link Stranded}); true: the timer stopped, it ended. */
    private boolean stranded() {
        if (context.waiting(this)) {
            return false;
        }
        result.completeExceptionally(new RedisClosedException("the hasp client is closed (" + this + ")"));
        return true;
    }

    /** Waiting when the client closed: nothing will wake it, so it fails with {@code closed}. */
    @Override
    public void clientClosed(RedisClosedException closed) {
        result.completeExceptionally(closed);
    }

    /** Runs once the result completed: releases the channel and timers, gives back a lock lockAsync's caller ended. */
    void finished() {
        WaitChannel ch;
        Wake w;
        Timeout timer;
        synchronized (this) {
            ch = channel;
            channel = null;
            w = wakeCancelled ? wake : null;
            wake = null;
            timer = deadlineTimer;
        }
        if (timer != null) {
            timer.cancel();
        }
        if (w != null && ch != null) {
            ch.unpark(w);
        }
        if (ch != null) {
            context.waiters.leave(ch);
        }
        context.resumed(this);
        rollbackIfUnknown();
        LockedFuture view = locked;
        if (view != null && !view.follow(result)) {
            Unlock.start(context, kind, name, owner);
        }
    }

    /**
     * Once the result completed without the lock, rolls back an acquire with an unknown outcome, or gives back the
     * place in line an answer gave (target 0), unless an acquire is {@code SENDING} (its reply comes back). Once.
     */
    private void rollbackIfUnknown() {
        int target;
        synchronized (this) {
            if (step == AcquisitionStep.SENDING || unknownTarget == 0 || !result.isDone()) {
                return;
            }
            target = Math.max(0, unknownTarget);
            unknownTarget = 0;
        }
        Rollback.unlessAcquired(result, context, kind, name, owner, target, leaseMillis);
    }

    /** The claimed hand-over has reported; whether the result ended before, waiting for that report. */
    private synchronized boolean reported() {
        handOverReported = true;
        return handOverUnsettled;
    }

    private synchronized void answered() {   // before the settle that follows it: a later end marks nothing
        answerPending = false;
    }

    /**
     * Lets the one call that completes the result go on, before anyone sees it (false: it is ending). Unless that is
     * the {@code answer}: while one is on its way (a reply, or the report of a claimed hand-over), the owner's next
     * acquisition of the hold waits for it; sent at once, it would find the owner at its target count (the late
     * grant), take that hold for its own, and lose it to the give-back.
     */
    synchronized boolean end(boolean answer) {
        if (ended) {
            return false;
        }
        ended = true;
        wakeCancelled = wake != null && wake.cancel();
        handOverUnsettled = !answer && wake != null && !wakeCancelled && wake.claimedForHandOver() && !handOverReported;
        if (!answer && (answerPending || handOverUnsettled)) {
            context.unsettled.mark(holdKey);
        }
        return true;
    }
}
