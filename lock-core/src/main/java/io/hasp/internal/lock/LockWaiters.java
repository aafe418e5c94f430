package io.hasp.internal.lock;

import io.hasp.internal.Futures;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.pubsub.Subscription;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.List;
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
        return join(channelName, null, null);
    }

    /**
     * {@link #join(String)}, for a lock whose kind takes turns when {@code turnChannel} is not null: a channel made
     * now subscribes to {@code turnChannel} (this client's turns) instead of {@code channelName}, and passes on a
     * turn or grant that nobody here takes with {@code unused}.
     */
    CompletableFuture<WaitChannel> join(String channelName, String turnChannel, UnusedTurns unused) {
        for (;;) {
            WaitChannel channel = channels.get(channelName);
            boolean created = false;
            if (channel == null) {
                WaitChannel fresh = new WaitChannel(channelName, turnChannel, unused);
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
        CompletableFuture<Subscription> subscribing = Futures.sent(() -> pubSub.subscribe(channel.firstChannel(), channel));
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

    /**
     * {@link #join(String, String, UnusedTurns)}, then {@link #listenShared} when {@code shared}: completes once every
     * subscription needed is confirmed. When only listening on the shared channel failed, the channel is left again
     * and the future fails.
     */
    CompletableFuture<WaitChannel> join(String channelName, String turnChannel, UnusedTurns unused, boolean shared) {
        CompletableFuture<WaitChannel> joined = join(channelName, turnChannel, unused);
        if (!shared || turnChannel == null) {
            return joined;
        }
        return joined.thenCompose(channel -> listenShared(channel).whenComplete((c, error) -> {
            if (error != null) {
                leave(channel);
            }
        }));
    }

    /**
     * Makes the waiters of {@code channel} hear its lock's shared channel too, where clients that take no turns
     * announce their releases (a no-op for a kind that takes no turns: that is its only channel). The future
     * completes with the channel once the server confirmed that subscription (the caller tries again only then:
     * no lost wake-up), or fails when subscribing failed. The subscription lasts as long as the channel.
     */
    CompletableFuture<WaitChannel> listenShared(WaitChannel channel) {
        if (channel.turnChannel == null) {
            return channel.ready;
        }
        CompletableFuture<WaitChannel> fresh = new CompletableFuture<>();
        CompletableFuture<WaitChannel> current = channel.shared.offer(fresh);
        if (current != fresh) {
            return current;
        }
        Futures.sent(() -> pubSub.subscribe(channel.channel, channel)).whenComplete((subscription, error) -> {
            if (error != null) {
                channel.shared.failed(fresh);
                fresh.completeExceptionally(error);
            } else if (!channel.shared.subscribed(subscription)) {
                unsubscribe(channel.channel, subscription);
                fresh.completeExceptionally(new IllegalStateException("the waiters of " + channel.channel + " left"));
            } else {
                fresh.complete(channel);
            }
        });
        return fresh;
    }

    private static void unsubscribe(String channelName, Subscription subscription) {
        subscription.unsubscribe().exceptionally(e -> {
            log.debug("unsubscribing {} failed: {}", channelName, e.toString());
            return null;
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
                unsubscribe(c.firstChannel(), subscription);
            }
            Subscription shared = c.shared.close();
            if (shared != null) {
                unsubscribe(c.channel, shared);
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

    /**
     * This client closes: the process leaves the line of every lock it waits for (or waited for a moment ago), so
     * that no lock is granted to it any more, and a grant that came as it closed goes on at once. The future
     * completes when every line answered or failed.
     */
    CompletableFuture<Void> leaveLines() {
        List<CompletableFuture<Void>> left = new ArrayList<>();
        for (WaitChannel channel : channels.values()) {
            CompletableFuture<Void> leaving = channel.leaveLine();
            if (leaving != null) {
                left.add(leaving);
            }
        }
        return CompletableFuture.allOf(left.toArray(CompletableFuture[]::new));
    }
}
