package io.hasp.internal;

import io.hasp.RedisException;
import io.hasp.ReplicaAcksException;
import io.hasp.RedisTimeoutException;
import io.hasp.internal.connection.ClientThreads;
import io.hasp.internal.connection.Command;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The one home of how hasp waits for, follows and reads its futures: the cause inside their
 * wrappers, whether a failure may be sent again, a callback without a dependent stage, and the
 * blocking waits of the blocking APIs built on the async ones. Waiting on one of a client's own
 * threads (event loop or timer) would stall the very replies and timeouts being waited for, so
 * every blocking wait first fails fast there with {@link IllegalStateException}. Stateless and
 * thread-safe.
 */
public final class Futures {

    private Futures() {
    }

    /**
     * The master's answer to a write, when {@code error} says only that too few replicas confirmed it
     * ({@link ReplicaAcksException}): the write ran.
     *
     * @return the answer, or null when {@code error} is another failure (or the answer is not a {@code type})
     */
    public static <T> T appliedOnMaster(Throwable error, Class<T> type) {
        return unwrap(error) instanceof ReplicaAcksException shortfall && type.isInstance(shortfall.reply())
                ? type.cast(shortfall.reply()) : null;
    }

    /** The cause inside the {@link CompletionException}/{@link ExecutionException} wrappers futures add. */
    public static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /**
     * A failure as a blocking API throws it: the cause inside the future's wrappers, as is when it
     * is unchecked (for example a {@link RedisException}), else wrapped in a {@link RedisException}.
     *
     * @throws Error when the cause is an {@link Error}: it is thrown rather than returned
     */
    public static RuntimeException rethrowable(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new RedisException(String.valueOf(t), t);
    }

    /**
     * Whether a command that failed with {@code failure} may be sent again: the error says so
     * ({@link RedisException#retryable()}); anything that is not a Redis error may not.
     */
    public static boolean retryable(Throwable failure) {
        return unwrap(failure) instanceof RedisException redis && redis.retryable();
    }

    /**
     * The future {@code call} returns, or, when it throws instead (a call that could not be sent: bad
     * arguments, a closed client), a future failed with what it threw, so that callers handle one
     * kind of failure. Small enough to be inlined, so that on the lock paths the lambda does not escape.
     */
    public static <T> CompletableFuture<T> sent(Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Runs {@code action} when {@code future} completes: registered on the command itself when the
     * future is a client command ({@link Command#whenDone}, no dependent stage allocated), else with
     * {@code whenComplete}. The failure may arrive wrapped in a {@code CompletionException}.
     */
    public static <T> void whenDone(CompletableFuture<T> future, BiConsumer<? super T, ? super Throwable> action) {
        if (future instanceof Command<T> command && command.whenDone(action)) {
            return;
        }
        future.whenComplete(action);
    }

    /**
     * Throws if the calling thread belongs to a hasp client.
     *
     * @param operation what the caller wanted to do, for the message (for example
     *     {@code "a blocking HaspLock call"})
     * @throws IllegalStateException on an event-loop or timer thread of a client
     */
    public static void checkBlockingAllowed(String operation) {
        Thread current = Thread.currentThread();
        if (ClientThreads.isClientThread(current)) {
            throw new IllegalStateException(operation + ": blocking call on hasp client thread " + current.getName()
                    + " (expected: an application thread; in a callback, use the async API and compose futures)");
        }
    }

    /**
     * Waits for a future; an interrupt ends the wait. Its failure is rethrown as
     * {@link #rethrowable} makes it. Client futures always complete (every command has a
     * timeout), so this wait is bounded.
     *
     * @throws IllegalStateException on a client thread
     * @throws RedisException when interrupted (the interrupt status is kept)
     */
    public static <T> T await(CompletableFuture<T> future) {
        checkBlockingAllowed("await");
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted while waiting for a reply", e);
        } catch (ExecutionException e) {
            throw rethrowable(e.getCause());
        }
    }

    /**
     * Waits for a future at most {@code timeout}, like {@link #await(CompletableFuture)}.
     *
     * @throws RedisTimeoutException when the future is not complete in time
     * @throws IllegalStateException on a client thread
     */
    public static <T> T await(CompletableFuture<T> future, Duration timeout) {
        checkBlockingAllowed("await");
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted while waiting for a reply", e);
        } catch (ExecutionException e) {
            throw rethrowable(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisTimeoutException("no result within " + timeout.toMillis() + " ms");
        }
    }

    /**
     * Waits for {@code future} without giving up on interrupts (the thread's interrupt status is
     * restored before returning) and returns its result; its failure is rethrown as
     * {@link #rethrowable} makes it. A {@link ParkingFuture} is waited for by parking.
     *
     * @param operation what the caller does, for the message when called on a client thread
     *     (for example {@code "a blocking HaspLock call"})
     * @throws IllegalStateException when the future is not done and the calling thread is one of
     *     a hasp client's own threads, which would wait for itself
     */
    public static <T> T join(CompletableFuture<T> future, String operation) {
        if (!future.isDone()) {
            checkBlockingAllowed(operation);
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
}
