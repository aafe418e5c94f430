package io.hasp.internal.pubsub;

import io.hasp.RedisClosedException;
import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.internal.connection.ArgsCommand;
import io.hasp.internal.connection.ConnectionListener;
import io.hasp.internal.connection.FrameSink;
import io.hasp.internal.connection.RedisConnection;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link PubSub} of a client, or of one cluster node, on one dedicated connection, for one
 * {@link ChannelKind} of channel. All state lives on that connection's event loop: public methods
 * hop there. Server subscriptions follow the listener count of each channel; after a reconnect
 * every wanted channel is subscribed again (in batches) and {@link MessageListener#onResubscribed}
 * is called once all are confirmed.
 *
 * <p>The (un)subscribe commands in flight are remembered in the order written, so that an error
 * reply is charged to the command it answers: a refused subscription fails its waiting
 * registrations with the server's error (a sharded channel asked of a node that does not own its
 * slot answers {@code MOVED}). A sharded channel that the server unsubscribes on its own (its slot
 * left the node) is reported to the {@code dropped} callback; its listeners stay registered.
 */
public final class DefaultPubSub implements PubSub, ConnectionListener, PushParser.Handler {

    private static final Logger log = LoggerFactory.getLogger(DefaultPubSub.class);
    private static final int RESUBSCRIBE_BATCH = 512;

    private final RedisConnection connection;
    private final ChannelKind kind;
    private final Consumer<String> dropped;
    private final EventLoop loop;
    private final Timer timer;
    private final long timeoutMillis;
    private final Map<String, ChannelState> channels = new HashMap<>();
    private int resubscriptionsPending;
    private final List<Op> ops = new ArrayList<>();   // (un)subscriptions to write at the end of this turn
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();   // written, not fully answered
    private boolean opsScheduled;
    private volatile boolean closed;

    /**
     * Classic channels on one server.
     *
     * @param connectionFactory creates the dedicated connection, given the sink for its push frames
     * @param timer the client's timer
     * @param timeoutMillis how long a subscription waits for the server's confirmation
     */
    public DefaultPubSub(Function<FrameSink, RedisConnection> connectionFactory, Timer timer, long timeoutMillis) {
        this(connectionFactory, timer, timeoutMillis, ChannelKind.CLASSIC, channel -> { });
    }

    /**
     * @param connectionFactory creates the dedicated connection, given the sink for its push frames
     * @param timer the client's timer
     * @param timeoutMillis how long a subscription waits for the server's confirmation
     * @param kind the kind of channel subscribed
     * @param dropped told (on the event loop) of a wanted channel the server unsubscribed on its own
     */
    public DefaultPubSub(Function<FrameSink, RedisConnection> connectionFactory, Timer timer, long timeoutMillis,
            ChannelKind kind, Consumer<String> dropped) {
        this.kind = kind;
        this.dropped = dropped;
        this.connection = connectionFactory.apply(new PushParser(this));
        this.loop = connection.eventLoop();
        this.timer = timer;
        this.timeoutMillis = timeoutMillis;
        connection.addListener(this);
    }

    /** @return the dedicated connection */
    public RedisConnection connection() {
        return connection;
    }

    @Override
    public CompletableFuture<Subscription> subscribe(String channel, MessageListener listener) {
        PubSub.checkSubscribe(channel, listener);
        Registration registration = new Registration(this, channel, listener);
        if (closed) {
            registration.subscribed.completeExceptionally(new RedisClosedException("pub/sub: client closed"));
            return registration.subscribed;
        }
        onLoop(() -> add(registration), registration.subscribed);
        try {
            timer.newTimeout(t -> onLoop(() -> expire(registration), registration.subscribed),
                    timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException timerStopped) {
            registration.subscribed.completeExceptionally(new RedisClosedException("pub/sub: client closed"));
        }
        return registration.subscribed;
    }

    CompletableFuture<Void> unsubscribe(Registration registration) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        onLoop(() -> remove(registration).whenComplete((ok, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(null);
            }
        }), result);
        return result;
    }

    private void add(Registration registration) {
        if (closed) {
            registration.subscribed.completeExceptionally(new RedisClosedException("pub/sub: client closed"));
            return;
        }
        ChannelState state = channels.computeIfAbsent(registration.channel, ChannelState::new);
        state.add(registration);
        if (state.confirmed) {
            registration.subscribed.complete(registration);
            return;
        }
        state.awaitingConfirmation.add(registration);
        sync(state);
    }

    private void expire(Registration registration) {
        if (registration.subscribed.isDone()) {
            return;
        }
        remove(registration);
        registration.subscribed.completeExceptionally(new RedisTimeoutException(
                kind.subscribeCommand() + " " + registration.channel + ": not confirmed within " + timeoutMillis + " ms"));
    }

    private CompletableFuture<Void> remove(Registration registration) {
        if (registration.leaving()) {
            return registration.unsubscribed();
        }
        CompletableFuture<Void> done = registration.unsubscribed();
        ChannelState state = channels.get(registration.channel);
        if (state == null || !state.remove(registration)) {
            done.complete(null);
            return done;
        }
        if (state.wanted()) {
            done.complete(null);
            return done;
        }
        state.awaitingUnsubscribe.add(done);
        if (!connection.isReady() || (!state.subscribeSent && state.pendingConfirmations == 0)) {
            forget(state);
        } else {
            sync(state);
            if (state.pendingConfirmations > 0) {
                timer.newTimeout(t -> onLoop(() -> done.completeExceptionally(new RedisTimeoutException(
                        kind.unsubscribeCommand() + " " + state.channel + ": not confirmed within " + timeoutMillis + " ms")), done),
                        timeoutMillis, TimeUnit.MILLISECONDS);
            }
        }
        return done;
    }

    /**
     * Queues SUBSCRIBE or UNSUBSCRIBE when the server's state differs from the wanted one. The
     * queue is written once at the end of the event-loop turn, consecutive operations of the same
     * kind as one command, so that thousands of subscriptions cost a few commands.
     */
    private void sync(ChannelState state) {
        boolean wanted = state.wanted();
        if (wanted == state.subscribeSent || !connection.isReady()) {
            return;   // when not ready, the reconnect subscribes every wanted channel
        }
        state.subscribeSent = wanted;
        state.confirmed = false;
        state.pendingConfirmations++;
        ops.add(new Op(wanted, state.channel));
        if (!opsScheduled) {
            opsScheduled = true;
            loop.execute(this::writeOps);
        }
    }

    private void writeOps() {
        opsScheduled = false;
        List<String> batch = new ArrayList<>();
        boolean subscribe = true;
        for (Op op : ops) {
            if (!batch.isEmpty() && (op.subscribe != subscribe || batch.size() == batchLimit())) {
                write(subscribe, batch);
            }
            subscribe = op.subscribe;
            batch.add(op.channel);
        }
        if (!batch.isEmpty()) {
            write(subscribe, batch);
        }
        ops.clear();
    }

    /**
     * How many channels one subscribe or unsubscribe command carries: a sharded one only channels of one slot (the
     * server refuses the whole command with {@code CROSSSLOT} otherwise), so one channel each; classic ones many.
     */
    private int batchLimit() {
        return kind == ChannelKind.SHARDED ? 1 : RESUBSCRIBE_BATCH;
    }

    private void write(boolean subscribe, List<String> channelNames) {
        inFlight.add(new InFlight(subscribe, List.copyOf(channelNames)));
        connection.writeNow(ArgsCommand.withoutReply(subscribe ? kind.subscribeCommand() : kind.unsubscribeCommand(),
                channelNames.toArray()));
        channelNames.clear();
    }

    private void forget(ChannelState state) {
        channels.remove(state.channel);
        for (CompletableFuture<Void> waiter : state.awaitingUnsubscribe) {
            waiter.complete(null);
        }
        state.awaitingUnsubscribe.clear();
    }

    @Override
    public void push(String pushKind, String channel, String payload) {
        if (pushKind.equals(kind.messagePush())) {
            deliver(channel, payload);
        } else if (pushKind.equals(kind.subscribePush())) {
            confirmed(true, channel);
        } else if (pushKind.equals(kind.unsubscribePush())) {
            confirmed(false, channel);
        } else {
            log.debug("{}: ignoring push {}", connection, pushKind);
        }
    }

    /** An error reply: it answers the oldest (un)subscribe command in flight, refused as a whole. */
    @Override
    public void error(String message) {
        InFlight refused = inFlight.poll();
        if (refused == null) {
            log.warn("{}: pub/sub error from the server: {}", connection, message);
            return;
        }
        log.debug("{}: {} {} refused: {}", connection, refused.subscribe ? kind.subscribeCommand()
                : kind.unsubscribeCommand(), refused.channels, message);
        for (String channel : refused.channels) {
            refused(refused.subscribe, channel, message);
        }
    }

    private void refused(boolean subscribe, String channel, String message) {
        ChannelState state = channels.get(channel);
        if (state == null || state.pendingConfirmations == 0 || --state.pendingConfirmations > 0) {
            return;
        }
        if (subscribe) {
            // The server did not subscribe: the registrations waiting for it fail with its answer.
            state.subscribeSent = false;
            state.confirmed = false;
            RedisServerException failure = new RedisServerException(message);
            for (Registration registration : new ArrayList<>(state.awaitingConfirmation)) {
                state.remove(registration);
                registration.subscribed.completeExceptionally(failure);
            }
        }
        boolean wasResubscribing = state.resubscribing;
        state.resubscribing = false;
        if (!state.wanted()) {
            forget(state);
        } else if (subscribe) {
            // Listeners confirmed before a reconnect, refused now: the owner moves them elsewhere.
            log.warn("{}: {} {} refused after a reconnect: {}", connection, kind.subscribeCommand(), channel, message);
            dropped.accept(channel);
        }
        if (wasResubscribing && --resubscriptionsPending == 0) {
            notifyResubscribed();
        }
    }

    /** One (un)subscribe command written and not yet answered for each of its channels. */
    private static final class InFlight {
        final boolean subscribe;
        final List<String> channels;
        int unanswered;

        InFlight(boolean subscribe, List<String> channels) {
            this.subscribe = subscribe;
            this.channels = channels;
            this.unanswered = channels.size();
        }
    }

    private void deliver(String channel, String message) {
        ChannelState state = channels.get(channel);
        if (state == null) {
            return;
        }
        for (Registration registration : state.listeners) {
            try {
                registration.listener.onMessage(channel, message);
            } catch (Throwable e) {
                log.warn("{}: listener of channel {} failed on a message", connection, channel, e);
            }
        }
    }

    private void confirmed(boolean subscribed, String channel) {
        ChannelState state = channels.get(channel);
        if (state == null || state.pendingConfirmations == 0) {
            if (!subscribed && state != null && state.confirmed) {
                // Not an answer: the server unsubscribed a wanted channel on its own (a sharded
                // channel whose slot left this node). The listeners stay; the owner moves them.
                state.confirmed = false;
                state.subscribeSent = false;
                dropped.accept(channel);
            }
            return;
        }
        InFlight answered = inFlight.peek();
        if (answered != null && --answered.unanswered == 0) {
            inFlight.poll();
        }
        if (--state.pendingConfirmations > 0) {
            return;
        }
        if (subscribed) {
            state.confirmed = true;
            for (Registration registration : state.awaitingConfirmation) {
                registration.subscribed.complete(registration);
            }
            state.awaitingConfirmation.clear();
        } else if (!state.wanted()) {
            forget(state);
        }
        if (state.resubscribing) {
            state.resubscribing = false;
            if (--resubscriptionsPending == 0) {
                notifyResubscribed();
            }
        }
    }

    private void notifyResubscribed() {
        for (ChannelState state : new ArrayList<>(channels.values())) {
            if (!state.confirmed) {
                continue;
            }
            for (Registration registration : state.listeners) {
                if (!registration.subscribed.isDone() || registration.subscribed.isCompletedExceptionally()) {
                    continue;
                }
                try {
                    registration.listener.onResubscribed(state.channel);
                } catch (Throwable e) {
                    log.warn("{}: listener of channel {} failed on resubscribe", connection, state.channel, e);
                }
            }
        }
    }

    @Override
    public void connected(RedisConnection c, boolean reconnect) {
        resubscriptionsPending = 0;
        List<String> batch = new ArrayList<>(RESUBSCRIBE_BATCH);
        for (ChannelState state : channels.values()) {
            if (!state.wanted()) {
                continue;
            }
            state.resubscribing = reconnect;
            if (reconnect) {
                resubscriptionsPending++;
            }
            state.subscribeSent = true;
            state.pendingConfirmations++;
            batch.add(state.channel);
            if (batch.size() == batchLimit()) {
                write(true, batch);
            }
        }
        if (!batch.isEmpty()) {
            write(true, batch);
        }
    }

    @Override
    public void disconnected(RedisConnection c) {
        resubscriptionsPending = 0;
        ops.clear();   // the reconnect subscribes every wanted channel
        inFlight.clear();
        for (ChannelState state : new ArrayList<>(channels.values())) {
            state.pendingConfirmations = 0;
            state.subscribeSent = false;
            state.confirmed = false;
            state.resubscribing = false;
            if (!state.wanted()) {
                forget(state);
            }
        }
    }

    @Override
    public CompletableFuture<Void> close() {
        closed = true;
        CompletableFuture<Void> failed = new CompletableFuture<>();
        onLoop(() -> {
            RedisClosedException failure = new RedisClosedException("pub/sub: client closed");
            for (ChannelState state : channels.values()) {
                state.awaitingConfirmation.forEach(r -> r.subscribed.completeExceptionally(failure));
                state.awaitingUnsubscribe.forEach(f -> f.complete(null));
            }
            channels.clear();
            failed.complete(null);
        }, failed);
        return failed.handle((ok, e) -> null).thenCompose(ignored -> connection.close());
    }

    /** A queued SUBSCRIBE ({@code subscribe}) or UNSUBSCRIBE of one channel. */
    private static final class Op {
        final boolean subscribe;
        final String channel;

        Op(boolean subscribe, String channel) {
            this.subscribe = subscribe;
            this.channel = channel;
        }
    }

    private void onLoop(Runnable task, CompletableFuture<?> onRejected) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException shutDown) {
            onRejected.completeExceptionally(new RedisClosedException("pub/sub: client closed"));
        }
    }
}
