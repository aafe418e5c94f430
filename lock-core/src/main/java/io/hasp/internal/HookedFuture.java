package io.hasp.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A {@link CompletableFuture} that runs {@link #completed()} right after it completes, however it
 * completes: {@code complete}, {@code completeExceptionally}, {@code cancel}, {@code completeAsync},
 * {@code orTimeout} or {@code completeOnTimeout}. hasp's own futures (a command, a blocking lock
 * call's wait) hang their completion work on it instead of on a dependent stage.
 *
 * <p>{@code completeAsync} is overridden because {@link CompletableFuture}'s own completes the
 * future without passing through {@code complete}; {@code obtrudeValue} and {@code obtrudeException}
 * are refused, since a result that was handed over cannot be taken back.
 *
 * @param <T> the result type
 */
public abstract class HookedFuture<T> extends CompletableFuture<T> {

    /** Creates an incomplete future. */
    protected HookedFuture() {
    }

    /**
     * Runs once per call that completed this future, on the thread that completed it. A
     * cancellation racing a completion may run it a second time, so it must be idempotent.
     */
    protected abstract void completed();

    @Override
    public boolean complete(T value) {
        boolean done = super.complete(value);
        if (done) {
            completed();
        }
        return done;
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        boolean done = super.completeExceptionally(ex);
        if (done) {
            completed();
        }
        return done;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean wasDone = isDone();
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled && !wasDone) {
            completed();
        }
        return cancelled;
    }

    /** Completes through {@link #complete} or {@link #completeExceptionally}, so the hook runs. */
    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        if (supplier == null || executor == null) {
            throw new NullPointerException(supplier == null ? "supplier" : "executor");
        }
        executor.execute(() -> {
            try {
                complete(supplier.get());
            } catch (Throwable t) {
                completeExceptionally(t);
            }
        });
        return this;
    }

    /**
     * Refused: the result of a hasp operation cannot be overwritten.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public void obtrudeValue(T value) {
        throw new UnsupportedOperationException("obtrudeValue: the result of a hasp operation cannot be overwritten");
    }

    /**
     * Refused: the result of a hasp operation cannot be overwritten.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public void obtrudeException(Throwable ex) {
        throw new UnsupportedOperationException(
                "obtrudeException: the result of a hasp operation cannot be overwritten");
    }
}
