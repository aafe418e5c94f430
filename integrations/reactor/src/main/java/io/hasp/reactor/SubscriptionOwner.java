package io.hasp.reactor;

import io.hasp.lock.LockOwner;
import java.util.function.LongFunction;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The owner of a reactive pipeline's locks: a holder id kept in the subscriber context, so that it
 * follows the subscription across threads instead of staying with one. Every lock of every client
 * takes the same holder id from it (with its client's id: {@code HaspLock.owner(holderId)}).
 *
 * <p>{@code withLock} scopes its work this way by itself; {@link #scope(Mono)} is for code that calls
 * {@code lock()} and {@code unlock()} of a {@link ReactiveLock} itself:
 *
 * <pre>{@code
 * Mono<Integer> twice = SubscriptionOwner.scope(stock.lock()
 *         .then(stock.lock())
 *         .then(stock.holdCount())
 *         .flatMap(held -> stock.unlock().then(stock.unlock()).thenReturn(held)));
 * }</pre>
 *
 * <p>Each subscription of a scoped publisher is an owner of its own (a retried or repeated pipeline
 * is a new owner); a scope inside another scope keeps the outer owner, so a nested {@code withLock} of
 * the same lock re-enters it. An owner stands for one flow of control: inner publishers that run at the
 * same time (a {@code flatMap} over {@code withLock} calls of one lock) would share the outer owner and
 * so re-enter instead of excluding each other; give each its own with {@link #newScope(Mono)}. Holder ids come from
 * {@link LockOwner#newHolderId()}: never a thread's id, so a blocking caller of the same client is
 * always another owner.
 */
public final class SubscriptionOwner {

    /** The context key under which the holder id (a {@code Long}) is kept. */
    static final Class<SubscriptionOwner> KEY = SubscriptionOwner.class;

    private SubscriptionOwner() {
    }

    /** {@code work} with an owner of its own per subscription, unless its subscriber already has one. */
    public static <T> Mono<T> scope(Mono<T> work) {
        return Mono.deferContextual(context -> context.hasKey(KEY)
                ? work
                : work.contextWrite(inner -> inner.put(KEY, LockOwner.newHolderId())));
    }

    /** {@code work} with an owner of its own per subscription, unless its subscriber already has one. */
    public static <T> Flux<T> scope(Publisher<T> work) {
        return Flux.deferContextual(context -> context.hasKey(KEY)
                ? Flux.from(work)
                : Flux.from(work).contextWrite(inner -> inner.put(KEY, LockOwner.newHolderId())));
    }

    /**
     * {@code work} with an owner of its own per subscription, even inside another owner's scope: for inner
     * publishers that run at the same time as each other (a {@code flatMap} over {@code withLock} calls of
     * one lock), which must exclude each other rather than re-enter as one owner.
     */
    public static <T> Mono<T> newScope(Mono<T> work) {
        return Mono.defer(() -> work.contextWrite(inner -> inner.put(KEY, LockOwner.newHolderId())));
    }

    /** Like {@link #newScope(Mono)} for a publisher of many values. */
    public static <T> Flux<T> newScope(Publisher<T> work) {
        return Flux.defer(() -> Flux.from(work).contextWrite(inner -> inner.put(KEY, LockOwner.newHolderId())));
    }

    /**
     * {@code work} as the owner {@code holderId}, for every subscription and inside any scope: for a pipeline
     * that goes on with the work of an owner from elsewhere, such as a coroutine's holder id handed to Reactor.
     * Two subscriptions of it at the same time are one owner and re-enter each other's locks.
     *
     * @param holderId a holder id from {@link LockOwner#newHolderId()}, or one an owner elsewhere holds locks with
     */
    public static <T> Mono<T> scope(long holderId, Mono<T> work) {
        return work.contextWrite(inner -> inner.put(KEY, holderId));
    }

    /**
     * The holder id of the subscription's owner; fails with {@link IllegalStateException} outside a
     * {@link #scope} or {@code withLock}.
     */
    public static Mono<Long> holderId() {
        return withHolder(Mono::just);
    }

    /** Runs {@code call} with the subscription's holder id, or fails when it has none. */
    static <T> Mono<T> withHolder(LongFunction<Mono<T>> call) {
        return Mono.deferContextual(context -> {
            Long holder = holderIn(context);
            return holder == null ? Mono.error(noOwner()) : call.apply(holder);
        });
    }

    static Long holderIn(ContextView context) {
        return context.getOrDefault(KEY, null);
    }

    private static IllegalStateException noOwner() {
        return new IllegalStateException("this subscription has no lock owner: call lock() and unlock() inside"
                + " SubscriptionOwner.scope(...), or use withLock(...), which scopes its work itself");
    }
}
