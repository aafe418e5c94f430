package io.hasp.internal.lock;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.Predicate;

/**
 * The parked waiters of one {@link WaitChannel}, in the order they parked, and the permits it left for waiters between
 * a failed try and parking (at most one per waiter). Not thread-safe: the channel's monitor guards it.
 */
final class ParkedWakes {

    private final ArrayDeque<Wake> parked = new ArrayDeque<>();
    private int permits;

    /** Parks {@code wake} unless a permit is left; false (the permit used) means: try again now. */
    boolean parkUnlessPermit(Wake wake) {
        if (permits > 0) {
            permits--;
            return false;
        }
        parked.addLast(wake);
        return true;
    }

    void remove(Wake wake) {
        parked.remove(wake);
    }

    /** The longest-parked wake that could still be claimed, claimed and taken out; null when none is. */
    Wake pollClaimed() {
        for (Wake wake; (wake = parked.pollFirst()) != null; ) {
            if (wake.claim()) {
                return wake;
            }
        }
        return null;
    }

    /** The longest-parked wake of a waiter {@code which} accepts, claimed for a hand-over and taken out; or null. */
    Wake claimForHandOver(Predicate<Successor> which) {
        for (Iterator<Wake> it = parked.iterator(); it.hasNext(); ) {
            Wake wake = it.next();
            if (wake.successor != null && which.test(wake.successor) && wake.claimForHandOver()) {
                it.remove();
                return wake;
            }
        }
        return null;
    }

    /** Leaves one more permit, at most one per waiter of {@code waiters}. */
    void permit(int waiters) {
        permits = Math.min(permits + 1, waiters);
    }

    /** At least {@code count} permits, for waiters between tries when everyone is woken. */
    void permitAtLeast(int count) {
        permits = Math.max(permits, count);
    }

    /** At most one permit per waiter of {@code waiters}, who may be none. */
    void capPermits(int waiters) {
        permits = Math.min(permits, waiters);
    }

    int size() {
        return parked.size();
    }
}
