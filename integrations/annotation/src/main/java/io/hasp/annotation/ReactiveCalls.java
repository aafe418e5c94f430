package io.hasp.annotation;

import io.hasp.lock.HaspLock;
import io.hasp.reactor.ReactiveLock;
import io.hasp.reactor.SubscriptionOwner;
import java.time.Duration;
import java.util.concurrent.Callable;
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

    /** Whether {@code returned} is Reactor's Mono or Flux, told by name so that Reactor need not be present. */
    static boolean isPublisher(Class<?> returned) {
        return isMono(returned) || returned.getName().equals("reactor.core.publisher.Flux");
    }

    static boolean isMono(Class<?> returned) {
        return returned.getName().equals("reactor.core.publisher.Mono");
    }

    /**
     * The method's publisher under the lock, per subscription. The call runs at once, as a call of the
     * method without {@code @Locked} would (it assembles the publisher); its publisher is subscribed once
     * the lock is held.
     */
    static Object locked(boolean mono, HaspLock haspLock, String name, LockOptions options, Callable<?> call)
            throws Exception {
        Publisher<?> work = (Publisher<?>) call.call();
        if (work == null) {
            return null;
        }
        ReactiveLock lock = ReactiveLock.of(haspLock);
        Mono<Boolean> acquire = Mono.defer(() -> attempt(lock, name, options, 1, System.nanoTime()));
        if (mono) {
            return SubscriptionOwner.scope(Mono.usingWhen(acquire,
                    held -> held ? Mono.from(work) : Mono.empty(),
                    held -> release(lock, held), (held, failure) -> release(lock, held), held -> release(lock, held)));
        }
        return SubscriptionOwner.scope(Flux.usingWhen(acquire,
                held -> held ? Flux.from(work) : Flux.empty(),
                held -> release(lock, held), (held, failure) -> release(lock, held), held -> release(lock, held)));
    }

    /** Attempt {@code attempt} and the ones after it: true when held, false when the call is skipped. */
    private static Mono<Boolean> attempt(ReactiveLock lock, String name, LockOptions options, int attempt, long start) {
        Mono<Boolean> once = options.leaseTime() == null
                ? lock.tryLock(options.waitTime())
                : lock.tryLock(options.waitTime(), options.leaseTime());
        return once.flatMap(held -> {
            if (held) {
                return Mono.just(true);
            }
            if (options.retryCount() != 0 && attempt > options.retryCount()) {
                if (options.whenUnavailable() == WhenUnavailable.SKIP) {
                    return Mono.just(false);
                }
                return Mono.error(new LockUnavailableException(name, attempt, Duration.ofNanos(System.nanoTime() - start),
                        options, null));
            }
            return Mono.delay(Duration.ofNanos(LockTemplate.jitter(options.retryInterval())))
                    .then(Mono.defer(() -> attempt(lock, name, options, attempt + 1, start)));
        });
    }

    private static Mono<Void> release(ReactiveLock lock, boolean held) {
        return held ? lock.unlock() : Mono.empty();
    }
}
