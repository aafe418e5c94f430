package io.hasp.it.history;

import io.hasp.testing.history.History;
import io.hasp.testing.history.Operation;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a fair lock's history for a waiter overtaken by one that asked later. A fair lock grants in the order its
 * waiters joined its queue, and a waiter joins at its first attempt, just after its call: so of two acquires whose
 * calls were more than {@code margin} apart (the time a call may take to reach the server), the earlier must be
 * granted first. Since holds do not overlap, a grant that came first shows in the history as a hold released before
 * the other's acquire returned: that, for the later caller, is an overtaking.
 *
 * <p>Only for runs in which every waiter stays: a waiter that gave up, or whose link was cut, leaves the queue and may
 * rightly be overtaken.
 */
final class QueueOrder {

    private QueueOrder() {
    }

    /** One definite hold: its acquire and the release that ended it. */
    private record Hold(Operation acquire, Operation release) {
    }

    /**
     * Returns one line for each overtaking in {@code history}, at most {@code limit} of them.
     *
     * @param history the history of one fair lock
     * @param marginNanos how much earlier a call must have been made to count as asking first
     * @param limit the most lines returned
     */
    static List<String> overtakings(History history, long marginNanos, int limit) {
        List<Hold> holds = holds(history);
        long start = history.firstInvocationNanos();
        List<String> found = new ArrayList<>();
        for (Hold earlier : holds) {
            for (Hold later : holds) {
                boolean askedLater = later.acquire().invokedNanos() - earlier.acquire().invokedNanos() > marginNanos;
                boolean servedFirst = later.release().completedNanos() < earlier.acquire().completedNanos();
                if (askedLater && servedFirst && found.size() < limit) {
                    found.add(later.acquire().owner() + " asked " + micros(later, earlier) + " us after "
                            + earlier.acquire().owner() + " (" + (earlier.acquire().invokedNanos() - start) / 1_000_000
                            + " ms into the run) and held and released the lock before it was served");
                }
            }
        }
        return found;
    }

    /** How many pairs of holds the check compared in a meaningful way: those whose calls were {@code margin} apart. */
    static long comparedPairs(History history, long marginNanos) {
        List<Hold> holds = holds(history);
        long pairs = 0;
        for (Hold earlier : holds) {
            for (Hold later : holds) {
                long apart = later.acquire().invokedNanos() - earlier.acquire().invokedNanos();
                // both waited at once: the later asked before the earlier was served
                if (apart > marginNanos && later.acquire().invokedNanos() < earlier.acquire().completedNanos()) {
                    pairs++;
                }
            }
        }
        return pairs;
    }

    /**
     * Returns {@code history} without each owner's first acquire (and, when it was granted, the release that ended
     * it). A worker's first call also warms its JVM and its connections and may take longer than the margin to reach
     * the server, so it joins the queue later than its call says.
     */
    static History withoutFirstHolds(History history) {
        Map<String, Boolean> skipRelease = new HashMap<>();   // owners seen; true while their first release is due
        List<Operation> kept = new ArrayList<>();
        for (Operation operation : history.operations()) {
            Boolean due = skipRelease.get(operation.owner());
            if (due == null && operation.type() == OperationType.ACQUIRE) {
                skipRelease.put(operation.owner(), operation.outcome() == Outcome.OK);
            } else if (Boolean.TRUE.equals(due) && operation.type() == OperationType.RELEASE) {
                skipRelease.put(operation.owner(), false);
            } else {
                kept.add(operation);
            }
        }
        return History.of(kept);
    }

    private static long micros(Hold later, Hold earlier) {
        return (later.acquire().invokedNanos() - earlier.acquire().invokedNanos()) / 1_000;
    }

    /** Each successful acquire paired with its owner's next successful release. */
    private static List<Hold> holds(History history) {
        Map<String, Operation> open = new HashMap<>();
        List<Hold> holds = new ArrayList<>();
        for (Operation operation : history.operations()) {
            if (operation.outcome() != Outcome.OK) {
                if (operation.type() == OperationType.RELEASE) {
                    open.remove(operation.owner());   // a hold whose end is not known is left out
                }
                continue;
            }
            if (operation.type() == OperationType.ACQUIRE) {
                open.put(operation.owner(), operation);
            } else if (operation.type() == OperationType.RELEASE) {
                Operation acquire = open.remove(operation.owner());
                if (acquire != null) {
                    holds.add(new Hold(acquire, operation));
                }
            }
        }
        return holds;
    }
}
