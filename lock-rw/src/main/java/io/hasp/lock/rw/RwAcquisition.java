package io.hasp.lock.rw;

import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One attempt to take a read or write hold for one owner, with its deadline, its place among the
 * lock's waiters and its result. It runs on callbacks (replies, release messages, the timer):
 * waiting costs no thread.
 *
 * <p>The algorithm: send the acquire script; on "held (ttl)" join the lock's wait channel and,
 * once subscribed, try again (no release between the failed try and the subscription goes
 * unnoticed); then park until a release message or min(ttl, time left) and try again. Connection
 * errors and timeouts are retried with backoff within the deadline, re-sending the same target
 * count so a retried acquire does not count the hold twice. An upgrade (the write lock asked for
 * by a read holder) fails at once with {@link LockUpgradeException}.
 *
 * <p>The result completes with {@code true} (acquired), {@code false} (deadline passed) or an
 * exception, on an event-loop or timer thread. When the caller completes or cancels it first
 * while an acquire lands, the hold is given back; an acquire with an unknown outcome is undone.
 */
final class RwAcquisition {

    private static final long MIN_BACKOFF_MILLIS = 5;
    private static final long MAX_BACKOFF_MILLIS = 200;
    /** How long to wait for a holder that set no expiry before looking again. */
    private static final long NO_TTL_POLL_MILLIS = 1_000;

    private final RwService service;
    private final String name;
    private final LockMode mode;
    private final LockOwner owner;
    private final long leaseMillis;
    private final boolean watchdog;
    private final boolean bounded;
    private final long deadlineNanos;
    private final CompletableFuture<Boolean> result = new CompletableFuture<>();

    private RwWaitChannel channel;   // guarded by this
    private boolean joining;         // guarded by this
    private RwWake wake;             // guarded by this
    private Timeout deadlineTimer;   // guarded by this
    private boolean inFlight;        // guarded by this
    private int unknownTarget;       // guarded by this; 0: no acquire with unknown outcome
    private long backoffMillis;      // guarded by this

    /**
     * @param leaseMillis the lease, or -1 for the watchdog
     * @param waitNanos how long to keep trying, or -1 for no deadline
     */
    RwAcquisition(RwService service, String name, LockMode mode, LockOwner owner, long leaseMillis, long waitNanos) {
        this.service = service;
        this.name = name;
        this.mode = mode;
        this.owner = owner;
        this.watchdog = leaseMillis < 0;
        this.leaseMillis = watchdog ? service.watchdogLeaseMillis() : leaseMillis;
        this.bounded = waitNanos >= 0;
        this.deadlineNanos = bounded ? service.nanoTime() + waitNanos : 0;
    }

    /** Starts the attempt and returns its result (see the class comment). */
    CompletableFuture<Boolean> start() {
        result.whenComplete((acquired, error) -> finished());
        if (bounded && remainingNanos() > 0) {
            // A zero wait makes exactly one attempt: its reply decides, not a timer.
            Timeout timer = service.schedule(() -> result.complete(false), remainingNanos(), TimeUnit.NANOSECONDS);
            synchronized (this) {
                deadlineTimer = timer;
            }
        }
        attempt();
        return result;
    }

    private long remainingNanos() {
        return deadlineNanos - service.nanoTime();
    }

    private void attempt() {
        if (result.isDone()) {
            return;
        }
        int target = service.holds().count(name, mode, owner.field()) + 1;
        long sentNanos = service.nanoTime();
        synchronized (this) {
            inFlight = true;
        }
        service.acquire(name, mode, owner, leaseMillis, target)
                .whenComplete((ttl, error) -> onReply(target, sentNanos, ttl, error));
    }

    private void onReply(int target, long sentNanos, Long ttl, Throwable error) {
        synchronized (this) {
            inFlight = false;
        }
        if (error != null) {
            onError(target, RwService.unwrap(error));
        } else if (ttl == null) {
            onAcquired(target, sentNanos);
        } else {
            synchronized (this) {
                unknownTarget = 0;
                backoffMillis = 0;
            }
            if (mode == LockMode.WRITE && ttl == WriteAcquireScript.UPGRADE) {
                result.completeExceptionally(new LockUpgradeException("write lock of " + name + " asked for by "
                        + owner + ", which holds its read lock: an upgrade would wait for itself forever"
                        + " (release the read lock first)"));
                return;
            }
            onHeld(ttl);
        }
    }

    private void onAcquired(int target, long sentNanos) {
        synchronized (this) {
            unknownTarget = 0;
        }
        service.holds().acquired(name, mode, owner.field(), target, leaseMillis, watchdog, sentNanos);
        service.renewer().start();
        if (!result.complete(true)) {
            // The caller gave up (deadline, cancel, interrupt) as this acquire landed: give it back.
            service.release(name, mode, owner);
        }
    }

    private void onError(int target, Throwable cause) {
        if (!RwService.retryable(cause)) {
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
            backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(MIN_BACKOFF_MILLIS, backoffMillis * 2));
            delay = backoffMillis;
        }
        if (result.isDone()) {
            rollbackIfUnknown();
            return;
        }
        if (bounded) {
            long left = TimeUnit.NANOSECONDS.toMillis(remainingNanos());
            if (left <= 0) {
                result.complete(false);
                rollbackIfUnknown();
                return;
            }
            delay = Math.min(delay, left);
        }
        service.schedule(this::attempt, delay, TimeUnit.MILLISECONDS);
    }

    private void onHeld(long ttl) {
        if (result.isDone()) {
            return;
        }
        if (bounded && remainingNanos() <= 0) {
            result.complete(false);
            return;
        }
        RwWaitChannel ch;
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
            service.waiters().join(name).whenComplete(this::onJoined);
            return;
        }
        park(ch, ttl);
    }

    private void onJoined(RwWaitChannel joined, Throwable error) {
        if (error != null) {
            synchronized (this) {
                joining = false;
            }
            // Could not subscribe (connection trouble): look again after a backoff, never spin.
            onError(0, RwService.unwrap(error));
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
            service.waiters().leave(joined);
            return;
        }
        attempt();
    }

    private void park(RwWaitChannel ch, long ttl) {
        long waitMillis = ttl >= 0 ? Math.max(1, ttl) : NO_TTL_POLL_MILLIS;
        if (bounded) {
            waitMillis = Math.min(waitMillis, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos())));
        }
        RwWake w = new RwWake(this::attempt);
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
        w.timeout(service.schedule(() -> {
            if (w.claim()) {
                ch.unpark(w);
                w.run();
            }
        }, waitMillis, TimeUnit.MILLISECONDS));
    }

    /** Runs once, when the result completed: leaves the wait channel, stops the timers. */
    private void finished() {
        RwWaitChannel ch;
        RwWake w;
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
        if (w != null) {
            w.cancel();
            if (ch != null) {
                ch.unpark(w);
            }
        }
        if (ch != null) {
            service.waiters().leave(ch);
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
        if (Boolean.TRUE.equals(result.getNow(null))) {
            return;
        }
        service.rollback(name, mode, owner, target);
    }
}
