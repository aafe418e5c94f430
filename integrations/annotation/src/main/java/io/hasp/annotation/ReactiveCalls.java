package io.hasp.annotation;

import io.hasp.lock.HaspLock;
import io.hasp.reactor.ReactiveLock;
import io.hasp.reactor.SubscriptionOwner;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link Locked} methods that return a {@code Mono} or a {@code Flux}: each subscription takes the lock
 * without blocking (its own owner, or the one of an enclosing hasp-reactor {@code withLock}), runs the
 * method's publisher, and gives the lock back when it completes, fails or is cancelled. Loaded only
 * when such a method is called, so that hasp-annotation needs Reactor only where it is used.
 */
final class ReactiveCalls {

    private ReactiveCalls() {
    }

    /**
     * The method's publisher under the lock. Each subscription is an owner of its own and takes the lock;
     * once it is held the method is called and its publisher subscribed, so the method's own code runs under
     * the lock too, once per subscription.
     */
    static Object locked(boolean mono, HaspLock haspLock, String name, LockOptions options, Callable<?> call) {
        ReactiveLock lock = ReactiveLock.of(haspLock);
        if (mono) {
            return SubscriptionOwner.newScope(lockedMono(lock, name, options, call, held -> release(lock, held)));
        }
        Mono<Boolean> acquire = Mono.defer(() -> attempt(lock, name, options, 1, System.nanoTime()));
        return SubscriptionOwner.newScope(Flux.usingWhen(acquire,
                held -> held ? Flux.defer(() -> publisherOf(call)) : Flux.empty(),
                held -> release(lock, held), (held, failure) -> release(lock, held), held -> release(lock, held)));
    }

    /**
     * The method's publisher under the lock taken by the owner {@code holderId} for every subscription: the
     * work of an owner from elsewhere (a coroutine's) that a framework runs as a {@code Mono}. A cancelled
     * subscription gives the lock back once {@code workEnded} completes: when the work has stopped, not when the
     * cancel arrives.
     */
    static Object lockedAs(long holderId, HaspLock haspLock, String name, LockOptions options, Callable<?> call,
            Supplier<CompletableFuture<Void>> workEnded) {
        ReactiveLock lock = ReactiveLock.of(haspLock);
        return SubscriptionOwner.scope(holderId, lockedMono(lock, name, options, call,
                held -> held ? Mono.fromFuture(workEnded.get(), true).then(lock.unlock()) : Mono.empty()));
    }

    private static Mono<Object> lockedMono(ReactiveLock lock, String name, LockOptions options, Callable<?> call,
            Function<Boolean, Mono<Void>> releaseOnCancel) {
        Mono<Boolean> acquire = Mono.defer(() -> attempt(lock, name, options, 1, System.nanoTime()));
        return Mono.usingWhen(acquire,
                held -> held ? Mono.from(Flux.defer(() -> publisherOf(call))) : Mono.empty(),
                held -> release(lock, held), (held, failure) -> release(lock, held), releaseOnCancel);
    }

    /** The method's publisher of this subscription (an empty one when it returned null); a throw fails it. */
    @SuppressWarnings("unchecked")
    private static Publisher<Object> publisherOf(Callable<?> call) {
        try {
            Publisher<Object> work = (Publisher<Object>) call.call();
            return work == null ? Flux.empty() : work;
        } catch (Exception e) {
            return Flux.error(e);
        }
    }

    /**
     * Attempt {@code attempt} and the ones after it: true when held, false when the call is skipped. A grant goes on
     * through {@code filter} and {@code switchIfEmpty}, which hand a value on even to a subscriber that is leaving
     * (where {@code usingWhen} gives it back); {@code flatMap} or {@code then} would drop or discard it there.
     */
    private static Mono<Boolean> attempt(ReactiveLock lock, String name, LockOptions options, int attempt, long start) {
        Mono<Boolean> once = options.leaseTime() == null
                ? lock.tryLock(options.waitTime())
                : lock.tryLock(options.waitTime(), options.leaseTime());
        return once.filter(Boolean::booleanValue).switchIfEmpty(Mono.defer(() -> {
            if (options.retryCount() != 0 && attempt > options.retryCount()) {
                if (options.whenUnavailable() == WhenUnavailable.SKIP) {
                    return Mono.just(false);
                }
                return Mono.error(new LockUnavailableException(name, attempt, Duration.ofNanos(System.nanoTime() - start),
                        options, null));
            }
            return Mono.defer(() -> attempt(lock, name, options, attempt + 1, start))
                    .delaySubscription(Duration.ofNanos(LockTemplate.jitter(options.retryInterval())));
        }));
    }

    private static Mono<Void> release(ReactiveLock lock, boolean held) {
        return held ? lock.unlock() : Mono.empty();
    }
}
