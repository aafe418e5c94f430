package io.hasp.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * A future that one blocking caller can wait for by parking, with no waiter node allocated per
 * wait ({@link CompletableFuture#get()} allocates one): the lock's blocking methods wait for their
 * own acquisition or unlock this way. Completion, however it happens, runs {@link #onDone()} once
 * and unparks the waiting thread. Other threads may still wait with {@code get()} as usual.
 * ({@link Futures#join} waits this way when handed one.)
 *
 * @param <T> the result type
 */
public abstract class ParkingFuture<T> extends HookedFuture<T> {

    private volatile Thread waiter;

    /** Creates an incomplete future. */
    protected ParkingFuture() {
    }

    /** Runs right after this future completed, once per completion call that completed it. */
    protected void onDone() {
    }

    /** Runs {@link #onDone()}, then wakes the thread waiting in {@link #await}. */
    @Override
    protected final void completed() {
        onDone();
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
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
    public T await(boolean interruptible) throws InterruptedException, ExecutionException {
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
