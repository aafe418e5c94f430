package io.hasp.internal.lock;

import io.hasp.internal.Futures;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.pubsub.Subscription;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link WaitChannel}s of one client: one subscription per unlock channel with waiters
 * (a lock's channel, {@link LockKind#channel}, shared by every kind that announces there),
 * reference-counted, kept for a short linger after the last waiter left so that a lock under
 * steady contention does not pay a SUBSCRIBE/UNSUBSCRIBE pair per acquisition. Thread-safe.
 */
final class LockWaiters {

    private static final Logger log = LoggerFactory.getLogger(LockWaiters.class);

    private final PubSub pubSub;
    private final Timer timer;
    private final long lingerMillis;
    private final ConcurrentHashMap<String, WaitChannel> channels = new ConcurrentHashMap<>();

    LockWaiters(PubSub pubSub, Timer timer, long lingerMillis) {
        this.pubSub = pubSub;
        this.timer = timer;
        this.lingerMillis = lingerMillis;
    }

    /**
     * Joins the waiters of unlock channel {@code channelName}; the future completes with the channel once its
     * subscription is confirmed (the caller retries only then: no lost wake-up), or fails when
     * subscribing failed. Every successful or failed join is followed by one {@link #leave}.
     */
    CompletableFuture<WaitChannel> join(String channelName) {
        for (;;) {
            WaitChannel channel = channels.get(channelName);
            boolean created = false;
            if (channel == null) {
                WaitChannel fresh = new WaitChannel(channelName);
                channel = channels.putIfAbsent(channelName, fresh);
                if (channel == null) {
                    channel = fresh;
                    created = true;
                }
            }
            if (!channel.join()) {
                channels.remove(channelName, channel);
                continue;
            }
            if (created) {
                subscribe(channel);
            }
            return channel.ready;
        }
    }

    private void subscribe(WaitChannel channel) {
        CompletableFuture<Subscription> subscribing = Futures.sent(() -> pubSub.subscribe(channel.channel, channel));
        subscribing.whenComplete((subscription, error) -> {
            if (error != null) {
                channel.closeFailed();
                channels.remove(channel.channel, channel);
                channel.ready.completeExceptionally(error);
                return;
            }
            channel.subscribed(subscription);
            channel.ready.complete(channel);
        });
    }

    /** Leaves the waiters of {@code channel}. */
    void leave(WaitChannel channel) {
        if (!channel.leave()) {
            return;
        }
        try {
            channel.linger(timer.newTimeout(t -> retire(channel, t), lingerMillis, TimeUnit.MILLISECONDS));
        } catch (RuntimeException e) {
            log.debug("timer stopped, unsubscribing {} now", channel.channel);
            retire(channel, null);
        }
    }

    private void retire(WaitChannel channel, Timeout timeout) {
        if (timeout == null) {
            channel.closeFailed();
        } else if (!channel.closeIfIdle(timeout)) {
            return;
        }
        channels.remove(channel.channel, channel);
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

    /** This client freed the lock announced on {@code channelName}: hand it to a local waiter, if one is parked. */
    void handOff(String channelName, long nowNanos) {
        WaitChannel channel = channels.get(channelName);
        if (channel != null) {
            channel.handOff(nowNanos);
        }
    }

    /**
     * Joins the waiters of {@code channelName} when its subscription is already confirmed, without
     * any network call; null otherwise. An acquisition that joins before its first attempt can
     * park right after a failed one: any release after that attempt reaches it as a message.
     * Followed by one {@link #leave} when not null.
     */
    WaitChannel joinIfReady(String channelName) {
        WaitChannel channel = channels.get(channelName);
        if (channel == null || !channel.ready.isDone() || channel.ready.isCompletedExceptionally()
                || !channel.join()) {
            return null;
        }
        return channel;
    }

    /** The waiters of unlock channel {@code channelName}, or null; for tests and diagnostics. */
    WaitChannel channel(String channelName) {
        return channels.get(channelName);
    }
}
