package io.hasp.lock.rw;

import io.hasp.client.pubsub.PubSub;
import io.hasp.client.pubsub.Subscription;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RwWaitChannel}s of one client: one subscription per lock name with waiters,
 * reference-counted; the last waiter to leave unsubscribes. Thread-safe.
 */
final class RwWaiters {

    private static final Logger log = LoggerFactory.getLogger(RwWaiters.class);

    private final PubSub pubSub;
    private final ConcurrentHashMap<String, RwWaitChannel> channels = new ConcurrentHashMap<>();

    RwWaiters(PubSub pubSub) {
        this.pubSub = pubSub;
    }

    /**
     * Joins the waiters of lock {@code name}; the future completes with the channel once its
     * subscription is confirmed (so an attempt made after it cannot miss a release), or fails when
     * subscribing failed. Every join, successful or not, is followed by one {@link #leave}.
     */
    CompletableFuture<RwWaitChannel> join(String name) {
        for (;;) {
            RwWaitChannel channel = channels.get(name);
            boolean created = false;
            if (channel == null) {
                RwWaitChannel fresh = new RwWaitChannel(name);
                channel = channels.putIfAbsent(name, fresh);
                if (channel == null) {
                    channel = fresh;
                    created = true;
                }
            }
            if (!channel.join()) {
                channels.remove(name, channel);
                continue;
            }
            if (created) {
                subscribe(channel);
            }
            return channel.ready;
        }
    }

    private void subscribe(RwWaitChannel channel) {
        CompletableFuture<Subscription> subscribing;
        try {
            subscribing = pubSub.subscribe(channel.channel, channel);
        } catch (RuntimeException e) {
            subscribing = CompletableFuture.failedFuture(e);
        }
        subscribing.whenComplete((subscription, error) -> {
            if (error != null) {
                channel.close();
                channels.remove(channel.name, channel);
                channel.ready.completeExceptionally(error);
                return;
            }
            channel.subscribed(subscription);
            channel.ready.complete(channel);
        });
    }

    /** Leaves the waiters of {@code channel}'s lock; the last one out unsubscribes. */
    void leave(RwWaitChannel channel) {
        if (!channel.leave()) {
            return;
        }
        channels.remove(channel.name, channel);
        channel.ready.thenAccept(c -> {
            Subscription subscription = c.subscription();
            if (subscription != null) {
                subscription.unsubscribe().exceptionally(e -> {
                    log.debug("unsubscribing {} failed: {}", c.channel, e.toString());
                    return null;
                });
            }
        });
    }

    /** The channel of lock {@code name}, or null; for tests and diagnostics. */
    RwWaitChannel channel(String name) {
        return channels.get(name);
    }
}
