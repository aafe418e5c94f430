package io.hasp.lock;

import io.hasp.internal.Futures;
import java.util.concurrent.CompletableFuture;

/**
 * Waits for one of hasp's futures the way hasp's own blocking calls do, for code that calls the async API (with an
 * explicit {@link LockOwner}, say) and blocks on the answer: hasp's Spring Integration registry and ShedLock provider,
 * or an application's own adapter.
 *
 * <p>On one of a client's own threads (an event loop or its timer, where a callback of a hasp future may run) the
 * wait is refused at once with an {@link IllegalStateException}: that thread would wait for the very reply it is
 * meant to read. Elsewhere the wait does not give up on an interrupt (the thread's interrupt status is kept), so a
 * lock call's outcome is never lost to one. It has no time limit of its own: a command, an unlock or a timed
 * acquisition ({@code tryLockAsync} with a wait time) completes within its timeouts and retry budget, while an
 * acquisition without a wait time ({@code lockAsync}) waits as long as the lock is held; cancel such a future to
 * give up on it.
 */
public final class Blocking {

    private Blocking() {
    }

    /**
     * Refuses a blocking call on one of a client's own threads, before anything is sent: an adapter calls it first,
     * so that an attempt that could never be waited for is not started.
     *
     * @param operation what the caller does, for the message (for example {@code "a LockRegistry lock call"})
     * @throws IllegalStateException on an event-loop or timer thread of a hasp client, naming the operation and the
     *     thread
     */
    public static void checkAllowed(String operation) {
        Futures.checkBlockingAllowed(operation);
    }

    /**
     * Waits for {@code future} and returns its result.
     *
     * @param future a future of hasp's async API
     * @param operation what the caller does, for the message when the wait is refused (for example
     *     {@code "the ShedLock provider's unlock"})
     * @param <T> the result's type
     * @return the future's result
     * @throws IllegalStateException when the future is not done and the calling thread is one of a hasp client's own
     * @throws RuntimeException the future's failure as hasp's blocking calls throw it: the cause itself when unchecked
     *     (a {@link io.hasp.RedisException}, {@link HoldLostException}, {@link IllegalMonitorStateException}, ...),
     *     else wrapped in a {@link io.hasp.RedisException}
     */
    public static <T> T join(CompletableFuture<T> future, String operation) {
        if (future == null) {
            throw new IllegalArgumentException("future: null (expected: a future of hasp's async API)");
        }
        return Futures.join(future, operation);
    }
}
