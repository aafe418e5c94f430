package io.hasp.internal.lock;

import io.hasp.RedisException;
import io.hasp.internal.Await;
import io.hasp.internal.Futures;
import io.hasp.internal.connection.Command;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;

/**
 * How the lock operations wait for and read their futures: the blocking methods of {@link KindLock}
 * waiting for their async twins, a reply's callback without a dependent stage, the failure as the
 * blocking API throws it, and whether a failed command may be sent again. Stateless and thread-safe.
 */
final class LockFutures {


    private LockFutures() {
    }

    /**
     * Waits for {@code future} without giving up on interrupts (the thread's interrupt status is
     * restored before returning) and returns its result; its failure is rethrown as
     * {@link #rethrowable} makes it.
     *
     * @param operation what the caller does, for the message when called on a client thread
     *     (for example {@code "a blocking HaspLock call"})
     * @throws IllegalStateException when the future is not done and the calling thread is one of
     *     a hasp client's own threads, which would wait for itself
     */
    static <T> T join(CompletableFuture<T> future, String operation) {
        if (!future.isDone()) {
            Await.checkBlockingAllowed(operation);
        }
        if (future instanceof ParkingFuture<T> parking) {
            try {
                return parking.await(false);
            } catch (InterruptedException e) {
                throw new AssertionError("an uninterruptible wait was interrupted", e);
            } catch (ExecutionException e) {
                throw rethrowable(e.getCause());
            }
        }
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw rethrowable(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Runs {@code action} when {@code future} completes: registered on the command itself when the
     * future is a client command ({@link Command#whenDone}, no dependent stage allocated), else with
     * {@code whenComplete}. The failure may arrive wrapped in a {@code CompletionException}.
     */
    static <T> void whenDone(CompletableFuture<T> future, BiConsumer<? super T, ? super Throwable> action) {
        if (future instanceof Command<T> command && command.whenDone(action)) {
            return;
        }
        future.whenComplete(action);
    }

    /**
     * The failure of a lock future as the blocking API throws it: the cause inside
     * {@code CompletionException}/{@code ExecutionException} wrappers, as is when it is a
     * {@link RuntimeException}, else wrapped in a {@link RedisException}.
     *
     * @throws Error when the cause is an {@link Error}: it is thrown rather than returned
     */
    static RuntimeException rethrowable(Throwable failure) {
        Throwable t = Futures.unwrap(failure);
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new RedisException(t.toString());
    }

    /** Whether an acquire, unlock or extension that failed with {@code cause} may be sent again. */
    static boolean retryable(Throwable cause) {
        return cause instanceof RedisException redis && redis.retryable();
    }
}
