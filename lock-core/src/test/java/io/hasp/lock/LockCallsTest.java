package io.hasp.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The blocking waits of the composed locks, without a server. */
class LockCallsTest {

    /** An acquisition that gets everything at the very moment the waiting caller cancels it. */
    private static final class GrantedAsCancelled extends CompletableFuture<Boolean> {
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            complete(true);
            return super.cancel(mayInterruptIfRunning);
        }
    }

    @Test
    void anInterruptThatRacesTheGrantGivesBackWhatWasGranted() {
        AtomicInteger givenBack = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> LockCalls.awaitInterruptibly(new GrantedAsCancelled(),
                    "a test wait", givenBack::incrementAndGet));
        } finally {
            Thread.interrupted();
        }
        assertEquals(1, givenBack.get(), "the caller, told 'interrupted', will not unlock: it is given back");
    }

    @Test
    void anInterruptBeforeAnyGrantCancelsAndGivesNothingBack() {
        AtomicInteger givenBack = new AtomicInteger();
        CompletableFuture<Boolean> pending = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class,
                    () -> LockCalls.awaitInterruptibly(pending, "a test wait", givenBack::incrementAndGet));
        } finally {
            Thread.interrupted();
        }
        assertTrue(pending.isCancelled());
        assertEquals(0, givenBack.get());
    }
}
