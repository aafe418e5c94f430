package io.hasp.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The count of threads in blocking lock calls that gates the direct path: each call counted once, out of the
 * count while it waits for another holder, and a mark never reaching a later call of the same thread.
 */
class CallerWaitsTest {

    @Test
    void aCallCountsItsThreadUntilItEnds() {
        int before = CallerWaits.threads();
        assertNull(CallerWaits.current(), "outside a call");
        boolean outer = CallerWaits.enter();
        assertFalse(outer);
        assertEquals(before + 1, CallerWaits.threads());
        boolean inner = CallerWaits.enter();
        assertTrue(inner, "a nested call is part of the outer one");
        assertEquals(before + 1, CallerWaits.threads());
        CallerWaits.exit(inner);
        assertEquals(before + 1, CallerWaits.threads());
        CallerWaits.exit(outer);
        assertEquals(before, CallerWaits.threads());
    }

    @Test
    void aCallWaitingForAHolderLeavesTheCountOnce() {
        int before = CallerWaits.threads();
        boolean outer = CallerWaits.enter();
        CallerWaits.Call call = CallerWaits.current();
        assertNotNull(call);
        long number = call.number();
        CallerWaits.waitsForHolder(call, number);
        assertEquals(before, CallerWaits.threads(), "out of the count while it waits");
        CallerWaits.waitsForHolder(call, number);
        assertEquals(before, CallerWaits.threads(), "marked once only");
        CallerWaits.exit(outer);
        assertEquals(before, CallerWaits.threads(), "and not taken out again when it ends");
    }

    @Test
    void aMarkForAnEndedCallLeavesTheThreadsNextCallCounted() {
        int before = CallerWaits.threads();
        boolean first = CallerWaits.enter();
        CallerWaits.Call call = CallerWaits.current();
        long firstNumber = call.number();
        CallerWaits.exit(first);

        CallerWaits.waitsForHolder(call, firstNumber);   // late: the call has ended
        assertEquals(before, CallerWaits.threads());

        boolean second = CallerWaits.enter();
        CallerWaits.waitsForHolder(call, firstNumber);   // late again: another call is on now
        assertEquals(before + 1, CallerWaits.threads(), "the new call stays counted");
        assertEquals(firstNumber + 1, CallerWaits.current().number());
        CallerWaits.exit(second);
        assertEquals(before, CallerWaits.threads());
        CallerWaits.waitsForHolder(null, 0);   // no blocking call behind an async acquisition
        assertEquals(before, CallerWaits.threads());
    }

    @Test
    void aCallMarkedFromAnotherThreadStaysBalanced() throws Exception {
        int before = CallerWaits.threads();
        boolean outer = CallerWaits.enter();
        CallerWaits.Call call = CallerWaits.current();
        long number = call.number();
        Thread marker = new Thread(() -> CallerWaits.waitsForHolder(call, number), "caller-waits-marker");
        marker.start();
        marker.join(10_000);
        assertFalse(marker.isAlive());
        assertEquals(before, CallerWaits.threads());
        assertTrue(CallerWaits.takeTurn(), "the call's turn is its own, marked or not");
        assertFalse(CallerWaits.takeTurn());
        CallerWaits.exit(outer);
        assertEquals(before, CallerWaits.threads());
    }

    @Test
    void onlyTheCallsOwnFirstStepIsNamedAndAMarkOnItsThreadEndsItsTurn() {
        int before = CallerWaits.threads();
        boolean outer = CallerWaits.enter();
        CallerWaits.Call call = CallerWaits.current();
        assertNotNull(call, "before its first script, the call is named");
        CallerWaits.waitsForHolder(call, call.number());   // on its own thread: parked before sending anything
        assertFalse(CallerWaits.takeTurn(), "uncounted, it does not go direct either");
        assertNull(CallerWaits.current(), "what starts later in the call is not the call's own");
        CallerWaits.exit(outer);
        assertEquals(before, CallerWaits.threads());

        boolean next = CallerWaits.enter();
        assertTrue(CallerWaits.takeTurn());
        assertNull(CallerWaits.current(), "after its first script, the call is not named");
        CallerWaits.exit(next);
        assertEquals(before, CallerWaits.threads());
    }

    @Test
    void aThreadThatNeverMakesABlockingCallHasNoCall() throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        Thread other = new Thread(() -> {
            CallerWaits.exit(false);   // nothing to end
            seen.set(CallerWaits.current() + " " + CallerWaits.takeTurn() + " " + CallerWaits.deadline());
        }, "caller-waits-none");
        int before = CallerWaits.threads();
        other.start();
        other.join(10_000);
        assertEquals("null false 0", seen.get());
        assertEquals(before, CallerWaits.threads());
    }
}
