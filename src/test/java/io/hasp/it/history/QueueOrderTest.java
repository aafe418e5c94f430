package io.hasp.it.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.history.History;
import io.hasp.testing.history.LockMode;
import io.hasp.testing.history.Operation;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fair lock's order check on hand-made histories (times in milliseconds). */
class QueueOrderTest {

    private static final long MS = 1_000_000;
    private static final long MARGIN = 50 * MS;

    private final List<Operation> operations = new ArrayList<>();

    /** A hold of {@code owner}: asked at {@code asked}, granted at {@code granted}, released at {@code released}. */
    private void hold(String owner, long asked, long granted, long released) {
        operations.add(new Operation("p", owner, "fair", OperationType.ACQUIRE, LockMode.EXCLUSIVE, 1, asked * MS,
                granted * MS, Outcome.OK, 0, Operation.UNBOUNDED));
        operations.add(new Operation("p", owner, "fair", OperationType.RELEASE, LockMode.EXCLUSIVE, 1, released * MS,
                released * MS + 1, Outcome.OK, 0, Operation.UNBOUNDED));
    }

    @Test
    void waitersServedInTheOrderTheyAskedPass() {
        hold("a", 0, 1, 100);
        hold("b", 10, 101, 200);     // asked while a held: queued first
        hold("c", 70, 201, 300);     // asked 60 ms after b, while b waited: served after it
        hold("d", 90, 301, 400);     // 80 ms after b, but only 20 ms after c: not judged against c
        History history = History.of(operations);
        assertEquals(List.of(), QueueOrder.overtakings(history, MARGIN, 10));
        assertEquals(2, QueueOrder.comparedPairs(history, MARGIN), "b before c, b before d");
    }

    @Test
    void aWaiterServedBeforeOneThatAskedEarlierIsReported() {
        hold("a", 0, 1, 100);
        hold("b", 10, 201, 300);     // asked first
        hold("c", 80, 101, 200);     // asked 70 ms later, yet held and released before b was served
        List<String> found = QueueOrder.overtakings(History.of(operations), MARGIN, 10);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("c asked 70000 us after b (10 ms into the run)"), found.get(0));
    }

    @Test
    void eachOwnersFirstHoldCanBeLeftOut() {
        hold("a", 0, 1, 100);
        hold("b", 10, 201, 300);     // b's first call, overtaken
        hold("c", 80, 101, 200);
        hold("b", 310, 311, 320);
        History history = History.of(operations);
        assertEquals(1, QueueOrder.overtakings(history, MARGIN, 10).size());
        History rest = QueueOrder.withoutFirstHolds(history);
        assertEquals(List.of(), QueueOrder.overtakings(rest, MARGIN, 10));
        assertEquals(2, rest.size(), "b's second hold, acquire and release");
        assertEquals(310 * MS, rest.operations().get(0).invokedNanos());
    }

    @Test
    void callsCloserThanTheMarginAreNotJudged() {
        hold("a", 0, 1, 100);
        hold("b", 10, 201, 300);
        hold("c", 40, 101, 200);     // 30 ms after b: either may have reached the server first
        History history = History.of(operations);
        assertEquals(List.of(), QueueOrder.overtakings(history, MARGIN, 10));
        assertEquals(0, QueueOrder.comparedPairs(history, MARGIN));
    }

    @Test
    void aHoldWhoseReleaseWasLostIsLeftOut() {
        hold("a", 0, 1, 100);
        hold("b", 10, 201, 300);
        operations.add(new Operation("p", "c", "fair", OperationType.ACQUIRE, LockMode.EXCLUSIVE, 1, 80 * MS,
                101 * MS, Outcome.OK, 0, Operation.UNBOUNDED));
        operations.add(new Operation("p", "c", "fair", OperationType.RELEASE, LockMode.EXCLUSIVE, 1, 200 * MS,
                250 * MS, Outcome.UNKNOWN, 0, Operation.UNBOUNDED));
        assertEquals(List.of(), QueueOrder.overtakings(History.of(operations), MARGIN, 10));
    }
}
