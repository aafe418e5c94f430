package io.hasp.internal.lock;

/**
 * Where an {@link Acquisition} stands until its result completes. One step at a time: each step ends in
 * exactly one callback (a reply, a subscription, a wake or a timer), which chooses the next.
 *
 * <p>The algorithm, as the steps it moves through: {@code SENDING} the acquire script; on "held by
 * another (ttl)", {@code JOINING} the lock's wait channel and, once subscribed, sending again (so no unlock between
 * the failed try and the subscription goes unnoticed); then {@code PARKED} until an unlock message, a local hand-off
 * or min(ttl, time left) passes, and sending again. Where the kind {@linkplain LockKind#turnChannel takes turns}, the
 * waiting processes stand in the lock's line and this client's channel is its own turn channel; the lock's shared
 * channel is joined too only when an answer names a holder that takes no turns. When this client already has a
 * confirmed subscription for the lock, the acquisition joins it before its first try and parks right after a failed
 * one. A parked acquisition may also be handed the lock by an unlock of this client ({@link HandOver},
 * {@link Acquisition#handOverEnded}), which needs no acquire script; right after this client freed the lock while
 * clients that take no turns listen, a new acquisition first parks for a short window so that they get their go
 * ({@link WaitChannel}). A kind that {@linkplain LockKind#queuesWaiters queues its waiters} gives each its own
 * channel, and a waiter that ends without the lock gives its place in line back with the kind's rollback, as an
 * acquire with an unknown outcome is undone. Connection errors, timeouts and grants too few replicas confirmed are
 * {@code BACKING_OFF} and retried within the deadline, re-sending the same target hold count so that a retried acquire
 * whose first reply was lost does not count the hold twice. A failure that the kind reports as its answer (an
 * exception that is not a Redis one) ends the attempt at once.
 */
enum AcquisitionStep {
    /** Created, or reading an answer to choose the next step. */
    DECIDING,
    /** An acquire script is on its way: only its reply tells whether the lock was taken. */
    SENDING,
    /** Subscribing to the lock's unlock channel; the next send follows the subscription. */
    JOINING,
    /** Parked on the unlock channel until a message, a local hand-off, a hand-over or its timer. */
    PARKED,
    /** Waiting out the backoff after a send that failed on the link or timed out. */
    BACKING_OFF
}
