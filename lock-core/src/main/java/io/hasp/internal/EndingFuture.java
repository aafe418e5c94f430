package io.hasp.internal;

import java.util.concurrent.CompletableFuture;

/**
 * A {@link HookedFuture} that runs one action right after it ends, however it ends (completed,
 * failed, cancelled, timed out by the caller): what an operation hands its caller when it must stop,
 * or give something back, the moment the caller ends the future first. The action may run twice
 * when a cancel races a completion, so it must be idempotent. Stages chained on it are plain futures.
 *
 * @param <T> the result type
 */
public final class EndingFuture<T> extends HookedFuture<T> {

    private final Runnable onEnd;

    /** A future that runs {@code onEnd} right after it ends. */
    public EndingFuture(Runnable onEnd) {
        this.onEnd = onEnd;
    }

    @Override
    protected void completed() {
        onEnd.run();
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
