package io.hasp.internal;

import io.hasp.RedisException;
import io.hasp.RedisTimeoutException;
import io.hasp.internal.connection.ClientThreads;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocking waits on the client's futures, for the blocking APIs built on the async ones.
 * Waiting on a client thread (event loop or timer) would stall the very replies and timeouts
 * being waited for, so it fails fast with {@link IllegalStateException}. Thread-safe.
 */
public final class Await {

    private Await() {
    }

    /**
     * Throws if the calling thread belongs to a hasp client.
     *
     * @param operation what the caller wanted to do, for the message
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
     * Waits for a future; its failure is rethrown as is when it is unchecked (e.g. a
     * {@link RedisException}), wrapped in a {@link RedisException} otherwise. Client futures
     * always complete (every command has a timeout), so this wait is bounded.
     *
     * @param future the future
     * @param <T> the result type
     * @return the result
     * @throws IllegalStateException on a client thread
     * @throws RedisException when interrupted (the interrupt flag is kept)
     */
    public static <T> T await(CompletableFuture<T> future) {
        checkBlockingAllowed("await");
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted while waiting for a reply", e);
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        } catch (CancellationException e) {
            throw e;
        }
    }

    /**
     * Waits for a future at most {@code timeout}.
     *
     * @param future the future
     * @param timeout the longest wait
     * @param <T> the result type
     * @return the result
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
            throw unwrap(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisTimeoutException("no result within " + timeout.toMillis() + " ms");
        }
    }

    private static RuntimeException unwrap(Throwable cause) {
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        if (cause instanceof Error) {
            throw (Error) cause;
        }
        return new RedisException(String.valueOf(cause), cause);
    }
}
