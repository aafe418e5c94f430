package io.hasp.reactor;

import static io.hasp.reactor.LockScope.call;

import io.hasp.sync.HaspSemaphore;
import java.time.Duration;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link HaspSemaphore} for Reactor. Permits have no owner: whoever takes them may give them back.
 * {@link #withPermits(int, Publisher)} takes permits for a subscription's work and gives them back when
 * the work completes, fails or is cancelled; a subscription cancelled while it waits stops waiting, and
 * permits granted at that moment are given back. Nothing here blocks; signals arrive on the client's
 * event-loop or timer threads. Thread-safe; a cheap view.
 */
public final class ReactiveSemaphore {

    private final HaspSemaphore semaphore;

    private ReactiveSemaphore(HaspSemaphore semaphore) {
        this.semaphore = semaphore;
    }

    /** {@code semaphore} for Reactor. */
    public static ReactiveSemaphore of(HaspSemaphore semaphore) {
        Objects.requireNonNull(semaphore, "semaphore");
        return new ReactiveSemaphore(semaphore);
    }

    /** The semaphore's name. */
    public String name() {
        return semaphore.getName();
    }

    /** Runs {@code work} holding {@code permits} permits, waiting for them as long as needed. */
    public <T> Flux<T> withPermits(int permits, Publisher<T> work) {
        Objects.requireNonNull(work, "work");
        Mono<Integer> taken = LockScope.acquisition(() -> semaphore.acquireAsync(permits), granted -> permits,
                granted -> semaphore.releaseAsync(permits));
        return Flux.usingWhen(taken, held -> work,
                held -> release(held), (held, failure) -> release(held), held -> release(held));
    }

    /**
     * Runs {@code work} holding {@code permits} permits if they are had within {@code waitTime}; fails with
     * {@link java.util.concurrent.TimeoutException} (and does not run the work) otherwise.
     */
    public <T> Flux<T> withPermits(int permits, Duration waitTime, Publisher<T> work) {
        Objects.requireNonNull(work, "work");
        LockScope.checkWait(waitTime);
        Mono<Integer> taken = LockScope.acquisition(() -> semaphore.tryAcquireAsync(permits, waitTime),
                held -> LockScope.heldOrTimeout(held, permits, permits + " permits of semaphore " + name(), waitTime),
                granted -> semaphore.releaseAsync(permits));
        return Flux.usingWhen(taken, held -> work,
                held -> release(held), (held, failure) -> release(held), held -> release(held));
    }

    /** Takes {@code permits} permits, waiting as long as needed. */
    public Mono<Void> acquire(int permits) {
        return LockScope.acquisition(() -> semaphore.acquireAsync(permits), granted -> Boolean.TRUE,
                granted -> semaphore.releaseAsync(permits)).then();
    }

    /** Takes {@code permits} permits if they are free now: true when taken. */
    public Mono<Boolean> tryAcquire(int permits) {
        return LockScope.tried(() -> semaphore.tryAcquireAsync(permits), () -> semaphore.releaseAsync(permits));
    }

    /** Takes {@code permits} permits if they are had within {@code waitTime}: true when taken. */
    public Mono<Boolean> tryAcquire(int permits, Duration waitTime) {
        return LockScope.tried(() -> semaphore.tryAcquireAsync(permits, waitTime), () -> semaphore.releaseAsync(permits));
    }

    /** Gives {@code permits} permits back (or adds them); cancelling the subscription does not cancel it. */
    public Mono<Void> release(int permits) {
        return Mono.fromFuture(() -> semaphore.releaseAsync(permits), true);
    }

    /** The permits free now. */
    public Mono<Integer> availablePermits() {
        return call(semaphore::availablePermitsAsync);
    }

    /** Sets the permits when the semaphore has none set yet: true when set. */
    public Mono<Boolean> trySetPermits(int permits) {
        return call(() -> semaphore.trySetPermitsAsync(permits));
    }

    /** Adds (or, when negative, removes) permits. */
    public Mono<Void> addPermits(int permits) {
        return call(() -> semaphore.addPermitsAsync(permits));
    }

    /** Takes every free permit: how many. */
    public Mono<Integer> drainPermits() {
        return call(semaphore::drainPermitsAsync);
    }

    @Override
    public String toString() {
        return "ReactiveSemaphore[" + semaphore.getName() + "]";
    }
}
