package io.hasp.reactor;

import io.hasp.lock.FencedLock;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link FencedLock} for Reactor, owned by the subscription as {@link ReactiveLock} describes: each
 * acquisition comes with its fencing token, which the work hands to the storage it writes so that a
 * write of an older holder can be refused.
 *
 * <pre>{@code
 * Mono<Void> write = fenced.withToken(token -> store.writeIfNewer(key, value, token));
 * }</pre>
 *
 * Thread-safe; a cheap view.
 */
public final class ReactiveFencedLock {

    private final FencedLock lock;
    private final ReactiveLock plain;
    private final LockScope<Long> scope;

    private ReactiveFencedLock(FencedLock lock) {
        this.lock = lock;
        this.plain = ReactiveLock.of(lock);
        this.scope = new LockScope<>(holder -> tokenOf(lock.owner(holder)),
                holder -> plain.unlock(lock.owner(holder)));
    }

    /** {@code lock} for Reactor. */
    public static ReactiveFencedLock of(FencedLock lock) {
        Objects.requireNonNull(lock, "lock");
        return new ReactiveFencedLock(lock);
    }

    /** The lock's name. */
    public String name() {
        return lock.getName();
    }

    /** The lock without its tokens: {@code withLock}, {@code lock()}, {@code unlock()} and the queries. */
    public ReactiveLock asLock() {
        return plain;
    }

    /**
     * Runs the work {@code work} makes of this acquisition's token, holding the lock (watchdog lease) until
     * the work completes, fails or is cancelled; waits as long as needed.
     */
    public <T> Mono<T> withToken(Function<Long, ? extends Mono<T>> work) {
        Objects.requireNonNull(work, "work");
        return scope.mono(work);
    }

    /** Like {@link #withToken(Function)} for work that publishes many values. */
    public <T> Flux<T> withTokenMany(Function<Long, ? extends Publisher<T>> work) {
        Objects.requireNonNull(work, "work");
        return scope.flux(work);
    }

    /** Acquires the lock for the subscription's owner (watchdog lease) and yields the token. */
    public Mono<Long> lockAndGetToken() {
        return SubscriptionOwner.withHolder(holder -> tokenOf(lock.owner(holder)));
    }

    /**
     * Acquires the lock for the subscription's owner for {@code leaseTime} (-1 ms: the watchdog) if it
     * is free within {@code waitTime}: the token, or empty when the wait passed.
     */
    public Mono<Long> tryLockAndGetToken(Duration waitTime, Duration leaseTime) {
        return SubscriptionOwner.withHolder(holder ->
                LockScope.acquisition(() -> lock.tryLockAndGetTokenAsync(waitTime, leaseTime, lock.owner(holder)),
                        token -> token.isPresent() ? token.getAsLong() : null,
                        token -> lock.unlockAsync(lock.owner(holder))));
    }

    /** The token of the subscription's owner's current hold, or empty. */
    public Mono<Long> token() {
        return SubscriptionOwner.withHolder(holder -> {
            var token = lock.getToken(lock.owner(holder));
            return token.isPresent() ? Mono.just(token.getAsLong()) : Mono.empty();
        });
    }

    private Mono<Long> tokenOf(LockOwner owner) {
        return LockScope.acquisition(() -> lock.lockAndGetTokenAsync(owner), token -> token,
                token -> lock.unlockAsync(owner));
    }

    @Override
    public String toString() {
        return "ReactiveFencedLock[" + lock.getName() + "]";
    }
}
