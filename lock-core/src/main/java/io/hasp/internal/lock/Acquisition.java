package io.hasp.internal.lock;

import io.hasp.RedisException;
import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * One attempt to acquire a lock of one {@link LockKind} for one owner, with its deadline, its place among the lock's
 * waiters and its result. It runs entirely on callbacks (replies, unlock messages, the timer):
 * waiting costs no thread.
 *
 * <p>The algorithm: send the acquire script; on "held by another (ttl)" join the lock's wait
 * channel and, once subscribed, try again (so no unlock between the failed try and the
 * subscription goes unnoticed); then park until an unlock message, a local hand-off or
 * min(ttl, time left) passes, and try again. When this client already has a confirmed
 * subscription for the lock, the acquisition joins it before its first try and parks right after
 * a failed one. A parked acquisition may also be handed the lock by an unlock of this client
 * ({@link HandOver}, {@link #handOverEnded}), which then needs no acquire script at all; right
 * after this client freed the lock for everyone, a new acquisition first parks for a short window
 * so that other clients' waiters get their turn ({@link WaitChannel}). Connection errors and
 * timeouts are retried with backoff within the deadline, re-sending the same target hold count so
 * that a retried acquire whose first reply was lost does not count the hold twice. A failure that
 * the kind reports as its answer (an exception that is not a Redis one) ends the attempt at once.
 *
 * <p>The result future completes with {@code true} (acquired), {@code false} (deadline passed)
 * or an exception; it completes on an event-loop or timer thread. When the caller completes or
 * cancels it first (deadline, interrupt, cancel) while an acquire lands, the acquired hold is
 * given back, and an acquire with an unknown outcome is rolled back.
 */
final class Acquisition implements Successor {

    /** How long to wait for a holder that set no expiry before looking again. */
    private static final long NO_TTL_POLL_MILLIS = 1_000;

    private final LockContext context;
    private final LockKind kind;
    private final String name;
    private final String channelName;
    private final LockOwner owner;
    private final HoldRegistry.Key holdKey;
    private final long leaseMillis;
    private final boolean watchdog;
    private final boolean bounded;
    private final long deadlineNanos;
    private final Result result = new Result();
    /** The lock-shaped view of {@link #result}, when started by {@link #startLocking}; else null. */
    private volatile Locked locked;

    private WaitChannel channel;     // guarded by this
    private boolean joining;         // guarded by this
    private Wake wake;               // guarded by this
    private Timeout deadlineTimer;   // guarded by this
    private boolean inFlight;        // guarded by this
    private int unknownTarget;       // guarded by this; 0: no acquire with unknown outcome
    private int failedSends;         // guarded by this; since the last answer, for the retry backoff

    /**
     * @param leaseMillis the lease, or -1 for the watchdog
     * @param waitNanos how long to keep trying, or -1 for no deadline
     */
    Acquisition(LockContext context, LockKind kind, String name, LockOwner owner, long leaseMillis, long waitNanos) {
        this.context = context;
        this.kind = kind;
        this.name = name;
        this.channelName = kind.channel(name);
        this.owner = owner;
        this.holdKey = HoldRegistry.key(kind, name, owner);
        this.watchdog = leaseMillis < 0;
        this.leaseMillis = watchdog ? context.watchdogLeaseMillis : leaseMillis;
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = bounded ? context.nanoTime() + waitNanos : 0;
    }

    /**
     * Starts the attempt (with no deadline) and returns a future that completes with null once the
     * lock is held, or fails as the result would; cancelling it cancels the attempt. It follows
     * the result without a dependent stage.
     */
    CompletableFuture<Void> startLocking() {
        Locked view = new Locked(result);
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
        // When this client already waits on the lock, join its waiters before the first attempt
        // (no network call): a failed attempt can then park at once, with no second attempt.
        WaitChannel ready = bounded && waitNanosZero() ? null : context.waiters.joinIfReady(channelName);
        if (ready != null) {
            synchronized (this) {
                if (!result.isDone()) {
                    channel = ready;
                    ready = null;
                }
            }
            if (ready != null) {
                context.waiters.leave(ready);
                return result;
            }
            long yieldNanos = channel().yielding(context.nanoTime());
            if (yieldNanos > 0) {
                // This client just freed the lock for everyone: let other clients' waiters go first.
                park(channel(), Math.max(1, TimeUnit.NANOSECONDS.toMillis(yieldNanos)));
                return result;
            }
            long holderLease = channel().localHoldLease(kind, name, owner);
            if (holderLease > 0) {
                // Another owner of this client holds it: its unlock hands over or wakes a waiter here.
                park(channel(), holderLease);
                return result;
            }
        }
        attempt();
        return result;
    }

    private boolean waitNanosZero() {
        return remainingNanos() <= 0;
    }

    private synchronized WaitChannel channel() {
        return channel;
    }

    @Override
    public LockKind kind() {
        return kind;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public LockOwner owner() {
        return owner;
    }

    /** The lease a hold taken by this acquisition gets, in milliseconds (the watchdog's when renewed). */
    @Override
    public long leaseMillis() {
        return leaseMillis;
    }

    @Override
    public void handOverEnded(boolean handedOver, Throwable error, long sentNanos) {
        if (handedOver) {
            onAcquired(1, sentNanos);
            return;
        }
        if (error != null) {
            // The hand-over may have taken place: an acquire with target 1 is harmless if it did.
            synchronized (this) {
                unknownTarget = 1;
            }
            if (result.isDone()) {
                rollbackIfUnknown();
                return;
            }
        }
        attempt();
    }

    private long remainingNanos() {
        return deadlineNanos - context.nanoTime();
    }

    private void attempt() {
        if (result.isDone()) {
            return;
        }
        int target = context.holds.count(holdKey) + 1;
        long sentNanos = context.nanoTime();
        synchronized (this) {
            inFlight = true;
        }
        LockFutures.whenDone(context.acquire(kind, name, owner, leaseMillis, target),
                (outcome, error) -> onReply(target, sentNanos, outcome, error));
    }

    private void onReply(int target, long sentNanos, AcquireOutcome outcome, Throwable error) {
        synchronized (this) {
            inFlight = false;
        }
        if (error != null) {
            onError(target, Futures.unwrap(error));
        } else if (outcome.acquired()) {
            onAcquired(target, sentNanos);
        } else {
            synchronized (this) {
                unknownTarget = 0;
                failedSends = 0;
            }
            onHeld(outcome.remainingMillis());
        }
    }

    private void onAcquired(int target, long sentNanos) {
        synchronized (this) {
            unknownTarget = 0;
        }
        context.holds.acquired(holdKey, owner, target, leaseMillis, watchdog, sentNanos);
        context.renewer.start();  // renews watchdog holds, and sweeps expired ones of the others
        if (!result.complete(true)) {
            // The caller gave up (deadline, cancel, interrupt) as this acquire landed: give it back.
            context.release(kind, name, owner);
        }
    }

    private void onError(int target, Throwable cause) {
        if (!(cause instanceof RedisException)) {
            // The kind's own answer (or a call that was never sent): the outcome is known.
            result.completeExceptionally(cause);
            return;
        }
        if (!LockFutures.retryable(cause)) {
            synchronized (this) {
                unknownTarget = target;
            }
            result.completeExceptionally(cause);
            rollbackIfUnknown();
            return;
        }
        long delay;
        synchronized (this) {
            unknownTarget = target;
            delay = Backoff.COMMAND_RETRY.delayNanos(failedSends++);
        }
        if (result.isDone()) {
            rollbackIfUnknown();
            return;
        }
        if (bounded) {
            long left = remainingNanos();
            if (TimeUnit.NANOSECONDS.toMillis(left) <= 0) {
                result.complete(false);
                rollbackIfUnknown();
                return;
            }
            delay = Math.min(delay, left);
        }
        context.schedule(this::attempt, delay, TimeUnit.NANOSECONDS);
    }

    private void onHeld(long ttl) {
        if (result.isDone()) {
            return;
        }
        if (bounded && remainingNanos() <= 0) {
            result.complete(false);
            return;
        }
        WaitChannel ch;
        synchronized (this) {
            ch = channel;
            if (ch == null) {
                if (joining) {
                    return;
                }
                joining = true;
            }
        }
        if (ch == null) {
            context.waiters.join(channelName).whenComplete(this::onJoined);
            return;
        }
        park(ch, ttl);
    }

    private void onJoined(WaitChannel joined, Throwable error) {
        if (error != null) {
            synchronized (this) {
                joining = false;
            }
            // Could not subscribe (connection trouble): look again after a backoff, never spin.
            onError(0, Futures.unwrap(error));
            return;
        }
        synchronized (this) {
            joining = false;
            if (!result.isDone()) {
                channel = joined;
                joined = null;
            }
        }
        if (joined != null) {
            context.waiters.leave(joined);
            return;
        }
        attempt();
    }

    private void park(WaitChannel ch, long ttl) {
        long waitMillis = ttl >= 0 ? Math.max(1, ttl) : NO_TTL_POLL_MILLIS;
        if (bounded) {
            waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos())));
        }
        Wake w = new Wake(this::attempt, this);
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            wake = w;
        }
        if (!ch.parkUnlessPermit(w)) {
            attempt();
            return;
        }
        w.timeout(context.schedule(() -> {
            if (w.claim()) {
                ch.unpark(w);
                w.run();
            }
        }, waitMillis, TimeUnit.MILLISECONDS));
    }

    /** Runs once, when the result completed: releases the wait channel and the timers. */
    private void finished() {
        WaitChannel ch;
        Wake w;
        Timeout timer;
        synchronized (this) {
            ch = channel;
            channel = null;
            w = wake;
            wake = null;
            timer = deadlineTimer;
        }
        if (timer != null) {
            timer.cancel();
        }
        if (w != null && w.cancel() && ch != null) {
            ch.unpark(w);
        }
        if (ch != null) {
            context.waiters.leave(ch);
        }
        rollbackIfUnknown();
    }

    private void rollbackIfUnknown() {
        int target;
        synchronized (this) {
            if (inFlight || unknownTarget == 0 || !result.isDone()) {
                return;
            }
            target = unknownTarget;
            unknownTarget = 0;
        }
        // getNow would throw on a cancelled or failed result: those gave nothing to the caller either
        if (!result.isCompletedExceptionally() && Boolean.TRUE.equals(result.getNow(null))) {
            return;
        }
        context.rollback(kind, name, owner, target, leaseMillis);
    }

    /**
     * The acquisition's result: runs {@link #finished} right after it completes, however it
     * completes (the acquisition, its deadline, or the caller completing or cancelling it), which
     * costs less than a dependent stage per acquisition.
     */
    private final class Result extends ParkingFuture<Boolean> {

        @Override
        void onDone() {
            finished();
            Locked view = locked;
            if (view != null) {
                view.follow(this);
            }
        }
    }

    /** The future of {@code lockAsync}: null once the lock is held. */
    private static final class Locked extends CompletableFuture<Void> {

        private final Result acquisition;

        Locked(Result acquisition) {
            this.acquisition = acquisition;
        }

        /** Completes as {@code done}, the completed acquisition result, did. */
        void follow(Result done) {
            if (done.isCancelled()) {
                super.cancel(false);
                return;
            }
            try {
                if (Boolean.TRUE.equals(done.getNow(null))) {
                    complete(null);
                } else {
                    completeExceptionally(new IllegalStateException("the lock was not acquired"));
                }
            } catch (CompletionException e) {
                completeExceptionally(e.getCause());
            } catch (CancellationException e) {
                super.cancel(false);
            }
        }

        /** Cancels the acquisition too: a lock granted concurrently is given back. */
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            acquisition.cancel(false);
            return cancelled;
        }

        @Override
        public <U> CompletableFuture<U> newIncompleteFuture() {
            return new CompletableFuture<>();
        }
    }
}
