package io.hasp.lock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A future that one blocking caller can wait for by parking, with no waiter node allocated per
 * wait ({@link CompletableFuture#get()} allocates one): the lock's blocking methods wait for their
 * own acquisition or unlock this way. Completion, however it happens, runs {@link #onDone()} once
 * and unparks the waiting thread. Other threads may still wait with {@code get()} as usual.
 *
 * @param <T> the result type
 */
abstract class ParkingFuture<T> extends CompletableFuture<T> {

    private volatile Thread waiter;

    /** Runs right after this future completed, once per completion call that completed it. */
    void onDone() {
    }

    private void done() {
        onDone();
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public boolean complete(T value) {
        boolean completed = super.complete(value);
        if (completed) {
            done();
        }
        return completed;
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        boolean completed = super.completeExceptionally(ex);
        if (completed) {
            done();
        }
        return completed;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean wasDone = isDone();
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (!wasDone && cancelled) {
            done();  // a racing completion may run it too: onDone must be idempotent
        }
        return cancelled;
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        executor.execute(() -> {
            try {
                complete(supplier.get());
            } catch (Throwable t) {
                completeExceptionally(t);
            }
        });
        return this;
    }

    @Override
    public void obtrudeValue(T value) {
        throw new UnsupportedOperationException("the result of a lock operation cannot be overwritten");
    }

    @Override
    public void obtrudeException(Throwable ex) {
        throw new UnsupportedOperationException("the result of a lock operation cannot be overwritten");
    }

    /** Stages that callers chain on it are plain futures. */
    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }

    /**
     * Waits, parked, until this future completes, then returns like {@link #get()}. Only one
     * thread may wait this way at a time.
     *
     * @param interruptible whether an interrupt ends the wait with {@link InterruptedException};
     *     when false, the wait goes on and the thread's interrupt status is restored on return
     */
    T await(boolean interruptible) throws InterruptedException, ExecutionException {
        if (!isDone()) {
            boolean interrupted = false;
            waiter = Thread.currentThread();
            try {
                while (!isDone()) {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        if (interruptible) {
                            throw new InterruptedException();
                        }
                        interrupted = true;
                    }
                }
            } finally {
                waiter = null;
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        return get();  // done: no wait, no waiter node
    }
}
