package io.hasp.internal.lock;

import io.hasp.internal.Futures;
import io.hasp.RedisClosedException;
import io.hasp.internal.ParkingFuture;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One unlock: gives back one hold of an owner, and is itself the future the caller gets. The kind's
 * release script is re-sent with the same request id (its latch) until it is confirmed or its retry
 * budget (about twice the command timeout) runs out, so a retry after a lost reply answers what the
 * first send did. A watchdog renewal of the hold in flight is waited for first, and none follows.
 *
 * <p>When this unlock gives back the owner's last hold and an acquisition of this client is parked on
 * the lock, the unlock claims it as its successor: the script then hands the lock straight to it and
 * the successor learns how that ended ({@link HandOver}). Otherwise, once the lock is
 * free, the lock's waiters here learn how ({@link WaitChannel#freed}): where waiting processes take turns, one is
 * woken only when the turn is this process's.
 *
 * <p>Until it has its answer, an acquisition of the same lock by the same owner waits for it ({@link UnlocksInFlight}).
 *
 * <p>Outcomes: completes normally when the hold was given back (the owner's hold ended, or it still holds
 * with one hold fewer); fails with {@link IllegalMonitorStateException} when the owner did not hold the
 * lock, with {@link HoldLostException} when this client tracked the hold but it had ended (expired or
 * lost), or with the Redis error when the unlock failed or could not be confirmed; when it was to give back the last
 * hold, the hold then ends {@link HoldEnd#LOST} and is not renewed any more, so its lease runs out in Redis unless
 * the unlock did free it (an inner level's failure leaves the hold renewed). Completes on an event-loop or timer
 * thread.
 */
final class Unlock extends ParkingFuture<Void> implements BiConsumer<ReleaseOutcome, Throwable>, Stranded {

    private final LockContext context;
    private final LockKind kind;
    private final String name;
    private final LockOwner owner;
    /** This client's record of the hold, or null when it tracks none. */
    private final Hold hold;
    private final HoldKey holdKey;
    /** Where this unlock is recorded among the unlocks in flight ({@link HoldKey#ordering}). */
    private final HoldKey orderKey;
    /** The key recording this request's outcome, the same for every send. */
    private final String latch;
    private final long leaseMillis;
    private final long retryUntilNanos;
    private int failedSends;
    private boolean sent;
    private long firstSentNanos;
    /** Whether the last send asked to keep this process a place in the lock's line. */
    private int staysInLine;
    /** The turns this process had seen when the last send went. */
    private long turnsAtSend;
    /** The parked local waiter this unlock hands the lock to; or null. */
    private HandOver handOver;
    /** The unlock of the same hold started before this one and still in flight then; or null. */
    private volatile Unlock earlier;
    /** Set once this unlock has its answer, just before it completes. */
    private volatile boolean answered;
    /**
     * Completed by {@link #finish}: what acquisitions of the same hold wait for (not this future, which its caller
     * may complete or cancel first). Made when the first one waits; guarded by this.
     */
    private CompletableFuture<Void> answer;

    private Unlock(LockContext context, LockKind kind, String name, LockOwner owner, Hold hold) {
        this.context = context;
        this.kind = kind;
        this.name = name;
        this.owner = owner;
        this.hold = hold;
        this.holdKey = hold != null ? hold.key : HoldKey.of(kind, name, owner);
        this.orderKey = holdKey.ordering(owner);
        this.latch = context.unlockLatch(kind, name);
        this.leaseMillis = hold != null ? hold.leaseMillis() : context.watchdogLeaseMillis;
        this.retryUntilNanos = context.nanoTime() + context.retryNanos;
    }

    /** Starts giving back one hold of {@code owner} (arguments already checked); returns the unlock. */
    static Unlock start(LockContext context, LockKind kind, String name, LockOwner owner) {
        Hold hold = context.holds.get(kind, name, owner);
        Unlock unlock = new Unlock(context, kind, name, owner, hold);
        Unlock before = context.unlocksInFlight.started(unlock.orderKey, unlock);
        if (before != null) {
            unlock.earlier = before.answered ? before.earlierInFlight() : before;
        }
        // After the rollback of an acquire of this hold whose outcome is unknown, if one is on its way.
        if (!context.unsettled.any() || !context.unsettled.deferred(unlock.holdKey, unlock::begin)) {
            unlock.begin();
        }
        return unlock;
    }

    /** The nearest unlock of the same hold started before this one that has no answer yet; or null. */
    Unlock earlierInFlight() {
        Unlock e = earlier;
        while (e != null && e.answered) {
            e = e.earlier;
        }
        return e;
    }

    /** Completes when this unlock has its answer and this client's records show it; null when it has it already. */
    synchronized CompletableFuture<Void> answer() {
        if (answered) {
            return null;
        }
        if (answer == null) {
            answer = new CompletableFuture<>();
        }
        return answer;
    }

    /** Sends once the watchdog's renewal of the hold in flight, if any, has answered. */
    private void begin() {
        CompletableFuture<Void> renewal = hold != null ? hold.beginClosing() : null;
        if (renewal == null) {
            send();
        } else {
            renewal.whenComplete((v, e) -> send());
        }
    }

    private void send() {
        CompletableFuture<ReleaseOutcome> reply;
        try {
            if (!sent) {
                sent = true;
                firstSentNanos = context.nanoTime();
                handOver = HandOver.claim(context, kind, name, owner, hold);
            }
            reply = release();
        } catch (RuntimeException e) {
            // Not sent. (Not Futures.sent: its lambda costs an allocation per unlock.)
            reply = CompletableFuture.failedFuture(e);
        }
        Futures.whenDone(reply, this);
    }

    /**
     * Sends the release on behalf of this client's process, handing the lock over when a waiter here was claimed
     * for it; where the kind takes turns, this process keeps a place in the lock's line when waiters here go on
     * waiting or come back ({@link WaitChannel#staysInLine}).
     */
    private CompletableFuture<ReleaseOutcome> release() {
        WaitChannel channel = channel();
        staysInLine = channel != null ? channel.staysInLine() : 0;
        turnsAtSend = channel != null ? channel.place.turns() : 0;
        boolean listensShared = channel != null && channel.ready.isDone() && channel.listensShared();
        Successor next = handOver != null ? handOver.successor() : null;
        return kind.releaseInLine(context.topology, name, owner, latch, leaseMillis, context.latchMillis,
                context.inLine(), staysInLine, listensShared, next != null ? next.owner() : null,
                next != null ? next.leaseMillis() : 0, staysInLine == 1 ? context.nextStamp() : 0);
    }

    /**
     * Tells the lock's waiters here that this owner no longer holds it (or may not: an unlock
     * that failed), so that new acquisitions stop parking behind it.
     */
    private void noLongerHeldHere() {
        if (kind.handsOver()) {
            WaitChannel channel = channel();
            if (channel != null) {
                channel.released(owner);
            }
        }
    }

    /** The lock's wait channel here, or null when nobody here waits for it. */
    private WaitChannel channel() {
        return handOver != null ? handOver.channel() : context.waiters.channel(kind.channel(name));
    }

    /** Tells the claimed successor, if any, how the hand-over ended. */
    private void reportToSuccessor(boolean handedOver, Throwable error) {
        if (handOver != null) {
            handOver.ended(handedOver, error, firstSentNanos);
        }
    }

    /** The reply to one send: {@code outcome} or {@code error}. */
    @Override
    public void accept(ReleaseOutcome outcome, Throwable error) {
        ReleaseOutcome applied = error == null ? outcome : Unconfirmed.applied(error, ReleaseOutcome.class);
        if (applied == null) {
            onError(Futures.unwrap(error));
        } else if (error != null) {
            accept(applied, null);   // applied on the master: lost in a failover, the lock stays held until its lease ends
        } else if (outcome == ReleaseOutcome.NOT_HELD) {
            onNotHeld();
        } else {
            onReleased(outcome);
        }
    }

    /** Waiting for a re-send when the client closed: ends as a send that failed for good. */
    @Override
    public void clientClosed(RedisClosedException closed) {
        onError(closed);
    }

    @Override
    public String toString() {
        return "unlock of " + kind + " lock " + name + " by " + owner;
    }

    private void onError(Throwable cause) {
        if (context.resendLater(this, this::send, cause, failedSends++, retryUntilNanos)) {
            return;
        }
        if (hold != null && cause instanceof RedisClosedException) {
            context.holds.end(hold, HoldEnd.CLIENT_CLOSED);
        } else if (hold != null && hold.count() <= 1) {
            // Nobody may go on relying on a hold whose unlock may have freed it, and nothing renews a hold whose
            // owner meant to give it back (an unlock not waited for would otherwise keep the lock taken for good).
            context.holds.end(hold, HoldEnd.LOST, "its unlock failed or could not be confirmed (" + cause
                    + "); it is not renewed any more, and its lease runs out in Redis unless that unlock freed it");
        } else if (hold != null) {
            hold.endClosing(0);   // an inner level: the owner holds the lock either way, renewal goes on
        }
        noLongerHeldHere();
        reportToSuccessor(false, cause);
        finish(cause);
    }

    /**
     * Completes this unlock ({@code failure}: null for success), once this client's records show its outcome: an
     * acquisition of the same hold waiting for it begins then.
     */
    private void finish(Throwable failure) {
        CompletableFuture<Void> waiting;
        synchronized (this) {
            answered = true;
            waiting = answer;
        }
        context.unlocksInFlight.answered(orderKey, this);
        if (failure == null) {
            complete(null);
        } else {
            completeExceptionally(failure);
        }
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    /** The script found no hold of this owner: never held, or a hold that ended before this unlock. */
    private void onNotHeld() {
        HoldEnd ended = null;
        String why = null;
        HoldRegistry holds = context.holds;
        if (hold != null) {
            boolean expired = hold.expired(context.nanoTime(), 0);
            ended = expired ? HoldEnd.EXPIRED : HoldEnd.LOST;
            why = expired ? "its lease of " + hold.leaseMillis() + " ms ran out"
                    : "it was no longer in Redis: the key was deleted or taken over, or the server lost it";
            holds.end(hold, ended);
            HoldRegistry.Ended first = holds.forgetEnded(hold.key);
            if (first != null && first.why() != null) {   // it had ended already (the watchdog found it gone): say so
                ended = first.how();
                why = first.why();
            }
            String change = context.mastersMovedSince(hold.beganNanos());
            if (change != null && !why.contains(change)) {
                why += "; the masters changed since it was granted: " + change;
            }
        } else {
            HoldRegistry.Ended gone = holds.forgetEnded(HoldKey.of(kind, name, owner));
            if (gone != null) {
                ended = gone.how();
                why = gone.why() != null ? gone.why() : ended == HoldEnd.EXPIRED ? "its lease ran out"
                        : "the watchdog found it gone, or could not reach Redis before the lease ran out";
            }
        }
        noLongerHeldHere();
        reportToSuccessor(false, null);
        finish(ended != null
                ? new HoldLostException(kind + " lock " + name + ": the hold of " + owner
                        + " ended before this unlock (" + ended + ": " + why + ")", ended)
                : new IllegalMonitorStateException(kind + " lock " + name + " is not held by " + owner
                        + " (it is held by another owner, or by nobody)"));
    }

    /** The owner still holds the lock, or its hold ended (freed, handed over, or others still hold). */
    private void onReleased(ReleaseOutcome outcome) {
        if (failedSends == 0) {
            // Its one send answered: nothing else will read the latch, so it goes at once. A request sent
            // again keeps its latch for the latch's life: its earlier send may still be on its way on another
            // connection, and must then find the outcome there instead of giving back a second hold.
            context.latches.forget(latch);
        }
        boolean handedOver = handOver != null && outcome == ReleaseOutcome.HANDED_OVER;
        if (outcome.holdEnded()) {
            if (hold != null) {
                context.holds.end(hold, HoldEnd.RELEASED);
            }
            context.holds.forgetEnded(holdKey);   // an ending remembered before this release is not reported later
            noLongerHeldHere();
            // A release that wakes every waiter by its message still tells this process of a turn it gave.
            if (!handedOver && (!kind.releaseWakesAll() || outcome.turnGiven())) {
                WaitChannel channel = channel();
                if (channel != null) {
                    channel.freed(outcome, context.nanoTime(), staysInLine, turnsAtSend);
                } else if (outcome == ReleaseOutcome.FREED_OWN_TURN) {
                    UnusedTurns.of(context, kind, name).pass();   // a place kept from before, and nobody here waits
                }
            }
        } else if (hold != null) {
            hold.endClosing(Math.max(1, hold.count() - 1));
        }
        reportToSuccessor(handedOver, null);
        finish(null);
    }
}
