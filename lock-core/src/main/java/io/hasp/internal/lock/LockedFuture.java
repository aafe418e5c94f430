package io.hasp.internal.lock;

import io.hasp.internal.HookedFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The future of {@code lockAsync}: completes with null once the acquisition it follows got the
 * lock, fails as that acquisition failed, and fails with {@link IllegalStateException} if it ended
 * without the lock. However the caller ends it first ({@code cancel}, {@code orTimeout},
 * {@code complete}...), the acquisition is cancelled, and a lock it is granted at that moment is
 * given back ({@link #follow} tells the acquisition). It follows the acquisition's result without a
 * dependent stage: the acquisition calls {@link #follow} once its result completed.
 */
final class LockedFuture extends HookedFuture<Void> {

    private final CompletableFuture<Boolean> acquisition;

    /** The lock-shaped view of {@code acquisition}'s result future. */
    LockedFuture(CompletableFuture<Boolean> acquisition) {
        this.acquisition = acquisition;
    }

    /**
     * Completes as {@code done}, the completed acquisition result, did.
     *
     * @return false when {@code done} got the lock but the caller had already ended this future:
     *     nobody will unlock it, so the acquisition gives it back
     */
    boolean follow(CompletableFuture<Boolean> done) {
        if (done.isCancelled()) {
            super.cancel(false);
            return true;
        }
        try {
            if (Boolean.TRUE.equals(done.getNow(null))) {
                return complete(null);
            }
            completeExceptionally(new IllegalStateException("the lock was not acquired"));
        } catch (CompletionException e) {
            completeExceptionally(e.getCause());
        } catch (CancellationException e) {
            super.cancel(false);
        }
        return true;
    }

    /** Ended, by the acquisition or by the caller: in the caller's case the acquisition stops too. */
    @Override
    protected void completed() {
        acquisition.cancel(false);
    }

    /** Stages that callers chain on it are plain futures. */
    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
