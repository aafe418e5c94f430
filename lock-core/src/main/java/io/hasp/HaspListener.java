package io.hasp;

import io.hasp.lock.HoldEnd;
import java.util.List;

/**
 * Hears what a {@link HaspClient} does with its locks and connections, for metrics, tracing and logs: set one on
 * {@link HaspConfig.Builder#listener}. Every method has an empty default, so an implementation overrides what it
 * needs. hasp's own module {@code hasp-micrometer} turns these events into meters.
 *
 * <p>Calls come on the client's event-loop and timer threads, often while a lock operation completes: an
 * implementation must be quick and must not block or call back into the client's blocking API. An exception it
 * throws is caught and logged, and changes nothing in the client. Lock kinds are named as the lock's
 * {@code toString} names them ({@code reentrant}, {@code fair}, {@code fenced}, {@code read}, {@code write}, ...;
 * {@code expirable-permit} for a permit-expirable semaphore's permits kept by the watchdog, whose ends and renewals
 * are told too);
 * lock names are the Redis keys the application chose, so a meter should not take them as tags unless the
 * application keeps their number small.
 *
 * <p>With no listener set (the default) the client makes none of these calls and pays nothing for them.
 */
public interface HaspListener {

    /**
     * An acquisition of lock {@code lock} of kind {@code kind} began (a blocking call, or an async one), on the
     * calling thread. What it returns comes back with the acquisition's end ({@link #acquired} or
     * {@link #acquireFailed}): a tracing span or an {@code Observation}, say.
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @return anything to hand to the end of this acquisition, or null
     */
    default Object acquireStarted(String kind, String lock) {
        return null;
    }

    /**
     * An acquisition got the lock, after waiting {@code waitNanos} since it began.
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param waitNanos from the start of the acquisition to the grant
     * @param started what {@link #acquireStarted} returned for it
     */
    default void acquired(String kind, String lock, long waitNanos, Object started) {
    }

    /**
     * An acquisition ended without the lock after {@code waitNanos}: its wait time passed ({@code cause} null), or
     * it failed, was interrupted or cancelled ({@code cause} says how).
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param waitNanos from the start of the acquisition to its end
     * @param cause why it failed, or null when its wait time passed
     * @param started what {@link #acquireStarted} returned for it
     */
    default void acquireFailed(String kind, String lock, long waitNanos, Throwable cause, Object started) {
    }

    /**
     * An acquisition sent its acquire script to Redis, attempt {@code attempt} (from 1): a first try, or one after
     * a release message, a holder's lease or a lost reply. What it returns comes back with the answer
     * ({@link #attemptAnswered}): a child span of the acquisition's, say, so that the script under a lock's wait is
     * named, not an anonymous {@code EVALSHA}. The calls of one acquisition come one after the other.
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param attempt how many acquire scripts the acquisition has sent, this one included
     * @param started what {@link #acquireStarted} returned for the acquisition
     * @return anything to hand to the answer, or null (then {@link #attemptAnswered} is not called)
     */
    default Object attemptSent(String kind, String lock, int attempt, Object started) {
        return null;
    }

    /**
     * The answer to an acquire script: {@code acquired}, or the lock held by another (both false), or
     * {@code error} when no answer came (a lost reply, a timeout, a server error).
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param acquired whether the script gave the lock
     * @param error why it has no answer, or null
     * @param sent what {@link #attemptSent} returned for it
     */
    default void attemptAnswered(String kind, String lock, boolean acquired, Throwable error, Object sent) {
    }

    /**
     * A release in this client handed the lock straight to this waiting acquisition within its own script, with no
     * acquire script of the acquisition's own ({@link #acquired} follows).
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param started what {@link #acquireStarted} returned for the acquisition
     */
    default void handedOver(String kind, String lock, Object started) {
    }

    /**
     * A hold ended after {@code heldNanos}: {@link HoldEnd#RELEASED} by its unlock (or a forced unlock),
     * {@link HoldEnd#LOST} or {@link HoldEnd#EXPIRED} when the owner lost the lock's protection before its unlock.
     * A re-entered hold ends once, when its last level is given back.
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param how how it ended
     * @param heldNanos from the grant that began the hold to its end
     */
    default void holdEnded(String kind, String lock, HoldEnd how, long heldNanos) {
    }

    /**
     * An unlock failed: the owner did not hold the lock (an {@link IllegalMonitorStateException}, a
     * {@link io.hasp.lock.HoldLostException} when its hold had ended), or Redis did not confirm it in time.
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param cause the unlock's failure
     */
    default void unlockFailed(String kind, String lock, Throwable cause) {
    }

    /**
     * An unlock of lock {@code lock} of kind {@code kind} began, on the calling thread. What it returns comes back
     * with the unlock's end ({@link #released}): a tracing span or an {@code Observation}, say.
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @return anything to hand to the end of this unlock, or null
     */
    default Object releaseStarted(String kind, String lock) {
        return null;
    }

    /**
     * An unlock ended after {@code nanos}: it gave back one hold ({@code cause} null), or it failed ({@code cause}
     * says how, as {@link #unlockFailed}, which is told too).
     *
     * @param kind the lock's kind
     * @param lock the lock's name
     * @param nanos from the start of the unlock to its end
     * @param cause why it failed, or null when it gave the hold back
     * @param started what {@link #releaseStarted} returned for it
     */
    default void released(String kind, String lock, long nanos, Throwable cause, Object started) {
    }

    /**
     * The watchdog renewed a batch of holds in one script call that took {@code nanos}; {@code lost} of them were
     * gone from Redis (each also ends with {@link #holdEnded}).
     *
     * @param holds the holds in the batch
     * @param lost how many of them were no longer held
     * @param nanos the call's round trip
     */
    default void renewed(int holds, int lost, long nanos) {
    }

    /**
     * The watchdog's renewal call for a batch of holds failed: no answer in time, a lost connection, or an answer it
     * could not read. It tries again at its next tick; a hold whose lease runs out meanwhile ends as
     * {@link HoldEnd#LOST}.
     *
     * @param kind the kind of the batch's locks (one call renews locks of one kind)
     * @param locks the names of the locks whose holds the call renewed, one per hold
     * @param cause why the call failed
     */
    default void renewalFailed(String kind, List<String> locks, Throwable cause) {
    }

    /**
     * A connection to Redis was lost ({@code up} false), or is up again after a loss ({@code up} true).
     *
     * @param connection the connection's name in the client's logs, e.g. {@code cmd-0 127.0.0.1:6379}
     * @param up whether it is connected now
     */
    default void connectionChanged(String connection, boolean up) {
    }

    /**
     * The client learnt of a change of masters: a Sentinel switch or promotion, a cluster's new slot map.
     *
     * @param change the change in words, as the logs give it
     */
    default void topologyChanged(String change) {
    }
}
