package io.hasp.reactor;

import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
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
     * An acquisition per subscription, yielding what {@code grant} makes of the call's value. Cancelling the
     * subscription cancels the wait, and hasp gives back a lock granted concurrently. A grant the subscriber
     * never received goes to {@code giveBack}, exactly once, so that an acquisition that completed as the
     * subscriber left is given back, never left held. {@code grant} may throw {@link Refused} to fail the
     * subscription with its cause.
     *
     * <p>Reactor's {@code Mono.create} drops a value that meets a cancel (it calls its dropped-value hook, not
     * the discard hook), so the hand-off is settled here: the sink's cancel callback runs only when the value
     * was not delivered, and of it and the completion, whichever comes second gives the grant back.
     */
    static <T, R> Mono<R> acquisition(Supplier<CompletableFuture<T>> call, Function<T, R> grant, Consumer<R> giveBack) {
        return Mono.<R>create(sink -> {
            CompletableFuture<T> future = call.get();
            AtomicReference<Object> handOff = new AtomicReference<>();   // null, a grant, or CANCELLED
            sink.onCancel(() -> {
                future.cancel(false);   // hasp gives back a lock granted as its future is cancelled
                Object granted = handOff.getAndSet(CANCELLED);
                if (granted != null && granted != CANCELLED) {
                    @SuppressWarnings("unchecked")
                    R undelivered = (R) granted;
                    giveBack.accept(undelivered);
                }
            });
            future.whenComplete((value, failure) -> {
                if (failure != null) {
                    if (!future.isCancelled() && handOff.get() != CANCELLED) {   // else nobody listens any more
                        sink.error(failure instanceof CompletionException && failure.getCause() != null
                                ? failure.getCause() : failure);
                    }
                    return;
                }
                R granted;
                try {
                    granted = grant.apply(value);
                } catch (Refused refused) {
                    if (handOff.get() != CANCELLED) {
                        sink.error(refused.getCause());
                    }
                    return;
                } catch (RuntimeException e) {
                    if (handOff.get() != CANCELLED) {
                        sink.error(e);
                    }
                    return;
                }
                if (handOff.compareAndSet(null, granted)) {
                    sink.success(granted);   // delivered, or dropped by a cancel whose callback gives it back
                } else if (granted != null) {
                    giveBack.accept(granted);   // the subscriber left before the grant came
                }   // null: not acquired, nothing to give back
            });
        });
    }

    /** An acquisition that yields whether it holds: a true that arrives after a cancel goes to {@code giveBack}. */
    static Mono<Boolean> tried(Supplier<CompletableFuture<Boolean>> call, Runnable giveBack) {
        return acquisition(call, Function.identity(), held -> {
            if (held) {
                giveBack.run();
            }
        });
    }

    /** Thrown by a {@code grant} function to fail the acquisition's subscription with the cause. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /** Marks a hand-off the subscriber left before the grant came. */
    private static final Object CANCELLED = new Object();

    private static long holderFor(ContextView context) {
        Long outer = SubscriptionOwner.holderIn(context);
        return outer != null ? outer : LockOwner.newHolderId();
    }

    /** {@code value} when {@code held}; else throws {@link Refused} with a {@link TimeoutException} naming what was not had. */
    static <V> V heldOrTimeout(boolean held, V value, String what, Duration waitTime) {
        if (!held) {
            throw new Refused(new TimeoutException(what + " not acquired within " + waitTime));
        }
        return value;
    }

    static void checkWait(Duration waitTime) {
        if (waitTime == null || waitTime.isNegative()) {
            throw new IllegalArgumentException("waitTime: " + waitTime + " (expected: zero or positive)");
        }
    }
}
