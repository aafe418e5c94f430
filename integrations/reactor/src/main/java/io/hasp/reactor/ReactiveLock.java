package io.hasp.reactor;

import static io.hasp.reactor.LockScope.call;

import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link HaspLock} for Reactor, owned by the subscription: the reentrant lock, the fair lock or
 * one mode of a read/write lock. Same Redis data, same semantics, same wire compatibility as the
 * lock it wraps; only who the owner is changes.
 *
 * <p><b>The usual form</b> runs work under the lock and gives it back when the work completes,
 * fails or is cancelled:
 *
 * <pre>{@code
 * Mono<Receipt> receipt = locks.getLock("stock:" + sku).withLock(deductOne(sku));
 * }</pre>
 *
 * Each subscription is an owner of its own ({@link SubscriptionOwner}): a nested {@code withLock}
 * on the same lock in the work re-enters it, on whatever thread the work runs; a second
 * subscription waits. A subscription cancelled while it waits stops waiting, and a lock granted
 * meanwhile is given back. Without a lease the client's watchdog keeps the lock as long as the
 * work runs.
 *
 * <p><b>Lock and unlock</b> ({@link #lock()}, {@link #tryLock(Duration)}, {@link #unlock()}, ...) take
 * the owner from the subscriber context and fail with {@link IllegalStateException} outside
 * {@link SubscriptionOwner#scope(Mono)} or {@code withLock}. The {@code ...(LockOwner)} forms name
 * the owner explicitly, as the async API does.
 *
 * <p><b>Threads.</b> Nothing here blocks. Signals arrive on the client's event-loop or timer threads:
 * move blocking work off them ({@code publishOn(Schedulers.boundedElastic())}). Thread-safe; a cheap
 * view.
 */
public final class ReactiveLock {

    private final HaspLock lock;
    private final LockScope<Long> scope;

    private ReactiveLock(HaspLock lock) {
        this.lock = lock;
        this.scope = new LockScope<>(holder -> {
            LockOwner owner = lock.owner(holder);
            return LockScope.acquisition(() -> lock.lockAsync(owner), granted -> holder,
                    granted -> lock.unlockAsync(owner));
        }, this::unlock);
    }

    /** {@code lock} for Reactor: any hasp lock, such as {@code client.getLock(name)}. */
    public static ReactiveLock of(HaspLock lock) {
        Objects.requireNonNull(lock, "lock");
        return new ReactiveLock(lock);
    }

    /** The lock's name. */
    public String name() {
        return lock.getName();
    }

    /** The wrapped lock, for its blocking and async API. */
    public HaspLock haspLock() {
        return lock;
    }

    /** Runs {@code work} holding the lock (watchdog lease), waiting as long as needed; see the class doc. */
    public <T> Mono<T> withLock(Mono<T> work) {
        Objects.requireNonNull(work, "work");
        return scope.mono(holder -> work);
    }

    /** Runs {@code work} holding the lock (watchdog lease) until it completes, fails or is cancelled. */
    public <T> Flux<T> withLock(Publisher<T> work) {
        Objects.requireNonNull(work, "work");
        return scope.flux(holder -> work);
    }

    /**
     * Runs {@code work} holding the lock (watchdog lease) if it is had within {@code waitTime}; fails with
     * {@link java.util.concurrent.TimeoutException} (and does not run the work) otherwise.
     */
    public <T> Mono<T> withLock(Duration waitTime, Mono<T> work) {
        Objects.requireNonNull(work, "work");
        return tryScope(waitTime).mono(holder -> work);
    }

    /** Like {@link #withLock(Duration, Mono)} for a publisher of many values. */
    public <T> Flux<T> withLock(Duration waitTime, Publisher<T> work) {
        Objects.requireNonNull(work, "work");
        return tryScope(waitTime).flux(holder -> work);
    }

    private LockScope<Long> tryScope(Duration waitTime) {
        LockScope.checkWait(waitTime);
        return new LockScope<>(holder -> {
            LockOwner owner = lock.owner(holder);
            return LockScope.acquisition(() -> lock.tryLockAsync(waitTime, owner),
                    held -> LockScope.heldOrTimeout(held, holder, "lock " + name(), waitTime),
                    granted -> lock.unlockAsync(owner));
        }, this::unlock);
    }

    /** Acquires the lock for the subscription's owner (watchdog lease), waiting as long as needed. */
    public Mono<Void> lock() {
        return SubscriptionOwner.withHolder(holder -> lock(lock.owner(holder)));
    }

    /** Acquires the lock for the subscription's owner for {@code leaseTime} (never renewed). */
    public Mono<Void> lock(Duration leaseTime) {
        return SubscriptionOwner.withHolder(holder -> locked(lock.owner(holder), owner -> lock.lockAsync(leaseTime, owner)));
    }

    /** One attempt (watchdog lease): true when the subscription's owner holds the lock now. */
    public Mono<Boolean> tryLock() {
        return SubscriptionOwner.withHolder(holder -> tried(lock.owner(holder), lock::tryLockAsync));
    }

    /** Acquires the lock (watchdog lease) if it becomes free within {@code waitTime}: true when held. */
    public Mono<Boolean> tryLock(Duration waitTime) {
        return SubscriptionOwner.withHolder(holder -> tried(lock.owner(holder), owner -> lock.tryLockAsync(waitTime, owner)));
    }

    /** Acquires the lock for {@code leaseTime} if it becomes free within {@code waitTime}: true when held. */
    public Mono<Boolean> tryLock(Duration waitTime, Duration leaseTime) {
        return SubscriptionOwner.withHolder(holder ->
                tried(lock.owner(holder), owner -> lock.tryLockAsync(waitTime, leaseTime, owner)));
    }

    /**
     * Gives back one hold of the subscription's owner; fails with {@link IllegalMonitorStateException}
     * when it holds none. Cancelling the subscription does not cancel the unlock.
     */
    public Mono<Void> unlock() {
        return SubscriptionOwner.withHolder(this::unlock);
    }

    /** Acquires the lock for {@code owner} (watchdog lease), waiting as long as needed. */
    public Mono<Void> lock(LockOwner owner) {
        Objects.requireNonNull(owner, "owner");
        return locked(owner, lock::lockAsync);
    }

    /** Acquires the lock for {@code owner} for {@code leaseTime} if free within {@code waitTime}. */
    public Mono<Boolean> tryLock(Duration waitTime, Duration leaseTime, LockOwner owner) {
        Objects.requireNonNull(owner, "owner");
        return tried(owner, held -> lock.tryLockAsync(waitTime, leaseTime, held));
    }

    /** Gives back one hold of {@code owner}; cancelling the subscription does not cancel it. */
    public Mono<Void> unlock(LockOwner owner) {
        Objects.requireNonNull(owner, "owner");
        return Mono.fromFuture(() -> lock.unlockAsync(owner), true);
    }

    /** Whether the subscription's owner holds the lock. */
    public Mono<Boolean> isHeld() {
        return SubscriptionOwner.withHolder(holder -> call(() -> lock.isHeldByAsync(lock.owner(holder))));
    }

    /** The subscription's owner's hold count (0 when it does not hold the lock). */
    public Mono<Integer> holdCount() {
        return SubscriptionOwner.withHolder(holder -> call(() -> lock.getHoldCountAsync(lock.owner(holder))));
    }

    /** Whether anyone holds the lock. */
    public Mono<Boolean> isLocked() {
        return call(lock::isLockedAsync);
    }

    /** Frees the lock whoever holds it: true when it was held. */
    public Mono<Boolean> forceUnlock() {
        return call(lock::forceUnlockAsync);
    }

    /** The lock's remaining time to live in milliseconds: -2 when not locked, -1 without expiry. */
    public Mono<Long> remainTimeToLive() {
        return call(lock::remainTimeToLiveAsync);
    }

    /** An acquisition that completes when {@code owner} holds the lock. */
    private Mono<Void> locked(LockOwner owner, Function<LockOwner, CompletableFuture<Void>> call) {
        return LockScope.acquisition(() -> call.apply(owner), granted -> Boolean.TRUE,
                granted -> lock.unlockAsync(owner)).then();
    }

    /** An acquisition that yields whether {@code owner} holds the lock. */
    private Mono<Boolean> tried(LockOwner owner, Function<LockOwner, CompletableFuture<Boolean>> call) {
        return LockScope.tried(() -> call.apply(owner), () -> lock.unlockAsync(owner));
    }

    private Mono<Void> unlock(long holder) {
        return unlock(lock.owner(holder));
    }

    @Override
    public String toString() {
        return "ReactiveLock[" + lock.getName() + "]";
    }
}
