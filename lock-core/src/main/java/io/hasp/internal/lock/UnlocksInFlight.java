package io.hasp.internal.lock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The unlocks of this client that have not had their answer yet, by hold: an acquisition of the same lock by the
 * same owner (in any mode of a lock that has several, {@link HoldKey#ordering}) begins only once they have been
 * answered.
 *
 * <p>Until then the acquisition cannot know which hold count to bring the owner to. Sent as a re-entry (the count
 * this client still records, plus one), it finds no hold once the unlock has run first, and fails as if the hold
 * had been lost; sent as a fresh hold on another connection (a blocking call's direct one, or after a reconnect),
 * it may run first and have its grant given back by the unlock that follows, while its caller believes it holds
 * the lock. This happens when an application calls {@code unlockAsync} without waiting and locks again at once.
 *
 * <p>Each hold with unlocks in flight maps to the latest of them, which links to the one started before it. An
 * unlock leaves the map when answered, before it completes, leaving the nearest earlier one still in flight in its
 * place; a waiting acquisition checks again once the unlock it waited for has its answer. Thread-safe;
 * costs one map insertion and one removal per unlock.
 */
final class UnlocksInFlight {

    private final ConcurrentHashMap<HoldKey, Unlock> latest = new ConcurrentHashMap<>();

    /** {@code unlock} of the hold {@code key} is started; returns the unlock of that hold started before it, or null. */
    Unlock started(HoldKey key, Unlock unlock) {
        return latest.put(key, unlock);
    }

    /** {@code unlock} of {@code key} has its answer and is about to complete: acquisitions need not wait for it. */
    void answered(HoldKey key, Unlock unlock) {
        Unlock earlier = unlock.earlierInFlight();
        if (earlier == null) {
            latest.remove(key, unlock);
        } else {
            latest.computeIfPresent(key, (k, now) -> now == unlock ? unlock.earlierInFlight() : now);
        }
    }

    /**
     * Begins {@code acquisition} once the unlock of {@code key} in flight now, if any, has its answer (it then
     * checks again). Waits for the unlock's answer, not for its future, which its caller may complete first.
     *
     * @return false when no unlock of {@code key} is in flight (the caller begins at once; nothing was kept)
     */
    boolean deferred(HoldKey key, Acquisition acquisition) {
        for (Unlock unlock = latest.isEmpty() ? null : latest.get(key); unlock != null; unlock = unlock.earlierInFlight()) {
            CompletableFuture<Void> answer = unlock.answer();
            if (answer != null) {
                answer.whenComplete((v, e) -> acquisition.begin());
                return true;
            }
        }
        return false;
    }
}
