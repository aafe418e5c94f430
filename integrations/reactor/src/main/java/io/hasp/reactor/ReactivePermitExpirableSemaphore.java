package io.hasp.reactor;

import static io.hasp.reactor.LockScope.call;

import io.hasp.sync.HaspPermitExpirableSemaphore;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link HaspPermitExpirableSemaphore} for Reactor: each permit has an id and a lease (or the client's
 * watchdog). {@link #withPermit(Function)} takes a permit for a subscription's work and gives it back
 * when the work completes, fails or is cancelled; a cancelled wait stops, and a permit granted at that
 * moment is given back. Nothing here blocks. Thread-safe; a cheap view.
 */
public final class ReactivePermitExpirableSemaphore {

    private final HaspPermitExpirableSemaphore semaphore;

    private ReactivePermitExpirableSemaphore(HaspPermitExpirableSemaphore semaphore) {
        this.semaphore = semaphore;
    }

    /** {@code semaphore} for Reactor. */
    public static ReactivePermitExpirableSemaphore of(HaspPermitExpirableSemaphore semaphore) {
        Objects.requireNonNull(semaphore, "semaphore");
        return new ReactivePermitExpirableSemaphore(semaphore);
    }

    /** The semaphore's name. */
    public String name() {
        return semaphore.getName();
    }

    /**
     * Runs the work {@code work} makes of a permit's id, holding that permit (kept by the watchdog) until
     * the work completes, fails or is cancelled; waits for the permit as long as needed.
     */
    public <T> Flux<T> withPermit(Function<String, ? extends Publisher<T>> work) {
        Objects.requireNonNull(work, "work");
        return Flux.usingWhen(acquire(), work, this::release, (id, failure) -> release(id), this::release);
    }

    /** Takes a permit kept by the watchdog, waiting as long as needed: its id. */
    public Mono<String> acquire() {
        return LockScope.acquisition(semaphore::acquireAsync, id -> id, semaphore::releaseAsync);
    }

    /** Takes a permit for {@code leaseTime}, waiting as long as needed: its id. */
    public Mono<String> acquire(Duration leaseTime) {
        return LockScope.acquisition(() -> semaphore.acquireAsync(leaseTime), id -> id,
                semaphore::releaseAsync);
    }

    /** Takes a permit for {@code leaseTime} if one is had within {@code waitTime}: its id, or empty. */
    public Mono<String> tryAcquire(Duration waitTime, Duration leaseTime) {
        return LockScope.acquisition(() -> semaphore.tryAcquireAsync(waitTime, leaseTime), id -> id,
                semaphore::releaseAsync);
    }

    /** Gives permit {@code permitId} back; fails with {@link IllegalArgumentException} when none is leased. */
    public Mono<Void> release(String permitId) {
        return Mono.fromFuture(() -> semaphore.releaseAsync(permitId), true);
    }

    /** The permits free now. */
    public Mono<Integer> availablePermits() {
        return call(semaphore::availablePermitsAsync);
    }

    /** Sets the permits when the semaphore has none set yet: true when set. */
    public Mono<Boolean> trySetPermits(int permits) {
        return call(() -> semaphore.trySetPermitsAsync(permits));
    }

    @Override
    public String toString() {
        return "ReactivePermitExpirableSemaphore[" + semaphore.getName() + "]";
    }
}
