package io.hasp.annotation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** A hold that ends with the asynchronous work it protects. */
final class AsyncHold {

    private AsyncHold() {
    }

    /**
     * A future of {@code work}'s outcome that completes once {@code release} answered after {@code work}
     * ended. Cancelling the future cancels {@code work} when it is a future; the release still waits for
     * {@code work} to end.
     */
    static <T> CompletableFuture<T> releasedAfter(CompletionStage<T> work, Supplier<CompletableFuture<Void>> release) {
        CompletableFuture<T> outcome = new CompletableFuture<>();
        work.whenComplete((value, failure) -> release.get().whenComplete((released, releaseFailure) -> {
            Throwable lost = releaseFailure == null ? null : unwrap(releaseFailure);
            if (failure != null) {
                Throwable cause = unwrap(failure);
                if (lost != null) {
                    cause.addSuppressed(lost);
                }
                outcome.completeExceptionally(cause);
            } else if (lost != null) {
                outcome.completeExceptionally(lost);
            } else {
                outcome.complete(value);
            }
        }));
        outcome.whenComplete((value, failure) -> {
            if (outcome.isCancelled()) {
                cancel(work);
            }
        });
        return outcome;
    }

    private static void cancel(CompletionStage<?> work) {
        try {
            work.toCompletableFuture().cancel(true);
        } catch (UnsupportedOperationException e) {
            // A stage with no future behind it cannot be cancelled: the lock goes back when it ends.
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
