package io.hasp.internal.lock;

import io.hasp.lock.LockOwner;

/**
 * A same-client hand-over: an unlock that gives back an owner's last hold claims the longest-parked local
 * waiter of the same kind and lock ({@link WaitChannel#claimSuccessor}), sends the kind's release naming it
 * as successor, so the script moves the lock to it without freeing it, and reports how that ended, to
 * the waiter and to its channel. The channel keeps the queue's side (who holds the lock by a hand-over,
 * when it is everyone's turn); this class is the release's side.
 */
final class HandOver {

    private final WaitChannel channel;
    private final Successor successor;

    private HandOver(WaitChannel channel, Successor successor) {
        this.channel = channel;
        this.successor = successor;
    }

    /**
     * Claims a successor for an unlock by {@code owner} of lock {@code name} of {@code kind} that gives
     * back its hold {@code hold}, or returns null: the kind does not hand over, the hold is not the
     * owner's last, nobody here waits, or it is everyone's turn.
     */
    static HandOver claim(LockContext context, LockKind kind, String name, LockOwner owner, Hold hold) {
        // Not when replicas must confirm writes: a lock handed over in the unlock's script would be
        // granted to the successor without its own confirmed acquire.
        if (hold == null || hold.count() != 1 || !kind.handsOver() || context.topology.replicaAcks().enabled()) {
            return null;
        }
        WaitChannel channel = context.waiters.channel(kind.channel(name));
        if (channel == null) {
            return null;
        }
        Wake claimed = channel.claimSuccessor(kind, name, owner);
        return claimed == null ? null : new HandOver(channel, claimed.successor);
    }

    /**
     * Claims a waiter parked on {@code channel} to hand over to a grant its process declines
     * ({@link WaitChannel#claimSuccessorForGrant}), or returns null: nobody there waits for a lock of a kind that hands
     * over.
     */
    static HandOver forDeclinedGrant(WaitChannel channel) {
        Wake claimed = channel.claimSuccessorForGrant();
        return claimed == null ? null : new HandOver(channel, claimed.successor);
    }

    /** The waiter the lock goes to. */
    Successor successor() {
        return successor;
    }

    /** The lock's wait channel here. */
    WaitChannel channel() {
        return channel;
    }

    /**
     * Reports how the hand-over ended: {@code handedOver} when the release script moved the lock to the
     * successor; else {@code error} when the release's outcome is unknown, or neither.
     */
    void ended(boolean handedOver, Throwable error, long sentNanos) {
        if (handedOver) {
            channel.handedOver(successor);
        } else {
            channel.handOverFailed();
        }
        successor.handOverEnded(handedOver, error, sentNanos);
    }
}
