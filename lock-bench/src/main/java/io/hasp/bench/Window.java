package io.hasp.bench;

import java.util.concurrent.CompletionStage;

/**
 * A fixed window of in-flight asynchronous operations for one benchmark thread: before slot {@code i}
 * is reused, the operation started in it {@code size} operations ago must have completed. The thread
 * therefore keeps up to {@code size} operations in flight, and the measured rate is the rate at which
 * they complete. Not thread-safe: one per thread.
 */
public final class Window {

    private final CompletionStage<?>[] slots;
    private int next;

    /**
     * Creates an empty window.
     *
     * @param size operations kept in flight, at least 1
     */
    public Window(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("size: " + size + " (expected: >= 1)");
        }
        this.slots = new CompletionStage<?>[size];
    }

    /**
     * Returns the window's size.
     *
     * @return the number of slots
     */
    public int size() {
        return slots.length;
    }

    /**
     * Waits for the operation in the next slot (if any) and returns that slot's index.
     *
     * @return the slot to start the next operation in
     */
    public int awaitSlot() {
        CompletionStage<?> previous = slots[next];
        if (previous != null) {
            previous.toCompletableFuture().join();
        }
        return next;
    }

    /**
     * Records the operation started in the slot {@link #awaitSlot()} returned and moves on.
     *
     * @param slot the slot index
     * @param operation its completion
     */
    public void started(int slot, CompletionStage<?> operation) {
        slots[slot] = operation;
        next = slot + 1 == slots.length ? 0 : slot + 1;
    }

    /** Waits for every operation still in flight; failures are ignored (the run is over). */
    public void drain() {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null) {
                try {
                    slots[i].toCompletableFuture().join();
                } catch (RuntimeException ignored) {
                    // the measurement is over; a late failure must not hide the results
                }
                slots[i] = null;
            }
        }
    }
}
