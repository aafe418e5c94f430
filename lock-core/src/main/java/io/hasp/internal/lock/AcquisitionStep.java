package io.hasp.internal.lock;

/**
 * Where an {@link Acquisition} stands until its result completes. One step at a time: each step ends in
 * exactly one callback (a reply, a subscription, a wake or a timer), which chooses the next.
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
