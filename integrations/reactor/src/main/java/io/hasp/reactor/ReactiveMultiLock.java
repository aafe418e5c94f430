package io.hasp.reactor;

import io.hasp.lock.MultiLock;
import java.time.Duration;
import java.util.Objects;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link MultiLock} for Reactor: all its members held together, by the subscription's owner as
 * {@link ReactiveLock} describes. A wait that is cancelled or fails gives back the members it had
 * taken. Thread-safe; a cheap view.
 */
public final class ReactiveMultiLock {

    private final MultiLock lock;
    private final LockScope<Long> scope;

    private ReactiveMultiLock(MultiLock lock) {
        this.lock = lock;
        this.scope = new LockScope<>(holder -> LockScope.acquisition(() -> lock.lockAsync(holder), granted -> holder,
                granted -> lock.unlockAsync(holder)), this::unlock);
    }

    /** {@code lock} for Reactor. */
    public static ReactiveMultiLock of(MultiLock lock) {
        Objects.requireNonNull(lock, "lock");
        return new ReactiveMultiLock(lock);
    }

    /** The wrapped multi-lock. */
    public MultiLock multiLock() {
        return lock;
    }

    /** Runs {@code work} holding every member (watchdog leases), waiting as long as needed. */
    public <T> Mono<T> withLock(Mono<T> work) {
        Objects.requireNonNull(work, "work");
        return scope.mono(holder -> work);
    }

    /** Runs {@code work} holding every member (watchdog leases) until it completes, fails or is cancelled. */
    public <T> Flux<T> withLock(Publisher<T> work) {
        Objects.requireNonNull(work, "work");
        return scope.flux(holder -> work);
    }

    /** Acquires every member for the subscription's owner (watchdog leases), waiting as long as needed. */
    public Mono<Void> lock() {
        return SubscriptionOwner.withHolder(this::locked);
    }

    /** Acquires every member for {@code leaseTime} if all are had within {@code waitTime}: true when held. */
    public Mono<Boolean> tryLock(Duration waitTime, Duration leaseTime) {
        return SubscriptionOwner.withHolder(holder -> LockScope.tried(() -> lock.tryLockAsync(waitTime, leaseTime, holder),
                () -> lock.unlockAsync(holder)));
    }

    /** Gives back every member held by the subscription's owner; cancelling the subscription does not cancel it. */
    public Mono<Void> unlock() {
        return SubscriptionOwner.withHolder(this::unlock);
    }

    private Mono<Void> locked(long holder) {
        return LockScope.acquisition(() -> lock.lockAsync(holder), granted -> Boolean.TRUE,
                granted -> lock.unlockAsync(holder)).then();
    }

    private Mono<Void> unlock(long holder) {
        return Mono.fromFuture(() -> lock.unlockAsync(holder), true);
    }

    @Override
    public String toString() {
        return "Reactive" + lock;
    }
}
