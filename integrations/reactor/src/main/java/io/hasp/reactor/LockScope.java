package io.hasp.reactor;

import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Work run under a lock for one subscription: the owner is the subscriber's (or a new one), the
 * work sees it in its context, and the lock is given back when the work completes, fails or is
 * cancelled; a subscription cancelled while it waits cancels the wait, and the lock call gives
 * back a lock granted meanwhile.
 *
 * @param <R> what the acquisition yields to the work (a fenced lock's token, or the holder id)
 */
final class LockScope<R> {

    private final LongFunction<Mono<R>> acquire;
    private final LongFunction<Mono<Void>> release;

    /**
     * @param acquire acquires for a holder id and yields a value once held (never completes empty)
     * @param release gives back one hold of a holder id
     */
    LockScope(LongFunction<Mono<R>> acquire, LongFunction<Mono<Void>> release) {
        this.acquire = acquire;
        this.release = release;
    }

    <T> Mono<T> mono(Function<R, ? extends Mono<T>> work) {
        return Mono.deferContextual(context -> {
            long holder = holderFor(context);
            return Mono.usingWhen(acquire.apply(holder),
                    acquired -> work.apply(acquired).contextWrite(inner -> inner.put(SubscriptionOwner.KEY, holder)),
                    acquired -> release.apply(holder),
                    (acquired, failure) -> release.apply(holder),
                    acquired -> release.apply(holder));
        });
    }

    <T> Flux<T> flux(Function<R, ? extends Publisher<T>> work) {
        return Flux.deferContextual(context -> {
            long holder = holderFor(context);
            return Flux.usingWhen(acquire.apply(holder),
                    acquired -> Flux.from(work.apply(acquired)).contextWrite(inner -> inner.put(SubscriptionOwner.KEY, holder)),
                    acquired -> release.apply(holder),
                    (acquired, failure) -> release.apply(holder),
                    acquired -> release.apply(holder));
        });
    }

    /** A hasp query per subscription. */
    static <T> Mono<T> call(Supplier<CompletableFuture<T>> future) {
        return Mono.fromFuture(future, false);
    }

    /**
     * An acquisition per subscription. Cancelling the subscription cancels the wait; hasp then gives
     * back a lock granted concurrently, and when the acquisition had already completed (its value was
     * on its way and is dropped), {@code giveBack} gets that value to give back what it holds. Exactly
     * one of the subscriber and {@code giveBack} gets a completed acquisition.
     */
    static <T> Mono<T> acquisition(Supplier<CompletableFuture<T>> call, Consumer<T> giveBack) {
        return Mono.create(sink -> {
            CompletableFuture<T> future = call.get();
            sink.onCancel(() -> {
                if (!future.cancel(false) && !future.isCompletedExceptionally()) {
                    giveBack.accept(future.join());
                }
            });
            future.whenComplete((value, failure) -> {
                if (failure != null) {
                    sink.error(failure instanceof CompletionException && failure.getCause() != null
                            ? failure.getCause() : failure);
                } else if (value == null) {
                    sink.success();
                } else {
                    sink.success(value);
                }
            });
        });
    }

    private static long holderFor(ContextView context) {
        Long outer = SubscriptionOwner.holderIn(context);
        return outer != null ? outer : LockOwner.newHolderId();
    }

    /** {@code held} as a value, or a {@link TimeoutException} naming the lock when it was not had in time. */
    static <V> Mono<V> heldOrTimeout(boolean held, V value, String lockName, Duration waitTime) {
        return held ? Mono.just(value)
                : Mono.error(new TimeoutException("lock " + lockName + " not acquired within " + waitTime));
    }

    static void checkWait(Duration waitTime) {
        if (waitTime == null || waitTime.isNegative()) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: zero or positive)");
        }
    }
}
