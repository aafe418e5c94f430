/**
 * hasp's locks for Reactor. {@link io.hasp.reactor.HaspReactiveClient} wraps a {@code HaspClient}
 * and gives {@link io.hasp.reactor.ReactiveLock}s (reentrant, fair, read/write modes),
 * {@link io.hasp.reactor.ReactiveFencedLock}s and {@link io.hasp.reactor.ReactiveMultiLock}s.
 *
 * <p>A lock's owner is the subscription: {@code withLock} gives each subscription an owner of
 * its own and keeps it in the subscriber context, so the same subscription re-enters the lock
 * wherever its operators run, and another subscription is excluded. See
 * {@link io.hasp.reactor.SubscriptionOwner}.
 */
package io.hasp.reactor;
