package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisAuthException;
import io.hasp.RedisClosedException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisProtocolException;
import io.hasp.internal.Futures;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.Timer;
import io.netty.util.internal.PlatformDependent;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logical, multiplexed connection to the server that outlives its channels: it connects
 * and handshakes, takes commands from any thread, writes them in batches (one flush per
 * event-loop turn), and after a loss lets its {@link ConnectionWatchdog} reconnect while new
 * commands wait (up to their own timeout) for the connection to be ready again.
 *
 * <p>A channel on which nothing has arrived for a while after a command's timeout (the command
 * timeout, at least 2 s) is taken for dead (half-open TCP, blackholed route) and closed, so
 * that the watchdog reconnects. Commands in flight when the channel is lost fail with
 * {@link RedisConnectionException}
 * and are never re-sent. After {@link #close()} every pending and new command fails with
 * {@link RedisClosedException}. {@link #dispatch} is thread-safe; the rest of the state is
 * confined to the connection's event loop, where all futures complete.
 */
public final class RedisConnection {

    private static final Logger log = LoggerFactory.getLogger(RedisConnection.class);

    private final String label;
    private final Connector connector;
    private final EventLoop loop;
    private final long timeoutMillis;
    private final long timeoutNanos;
    private final long stallGraceNanos;
    private final FrameSink push;
    private final ConnectionWatchdog watchdog;
    private final Queue<Command<?>> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private final List<ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final SweepSchedule sweeps;

    // Event loop only.
    private final ParkedCommands parked = new ParkedCommands();
    private Channel channel;
    private CommandHandler handler;
    private CommandHandler handshaking;
    private boolean everConnected;
    private long startDeadlineNanos;   // while start() runs: its connect deadline; 0 afterwards

    private volatile int heldOnLoop;   // commands the event loop holds (parked, written), for commandsInFlight()
    private volatile boolean ready;
    private volatile boolean closed;
    private volatile InetSocketAddress remoteAddress;

    /**
     * Creates a connection (not yet connected; see {@link #start()}).
     *
     * @param label a short name for logs and messages, e.g. {@code "cmd-0"}
     * @param connector opens channels to the server
     * @param loop the event loop every channel of this connection is registered with
     * @param timer the client's timer (timeouts, reconnect backoff)
     * @param push receives push frames (pub/sub), or {@code null} for a command connection
     */
    public RedisConnection(String label, Connector connector, EventLoop loop, Timer timer, FrameSink push) {
        HaspConfig config = connector.config();
        this.label = label;
        this.connector = connector;
        this.loop = loop;
        this.timeoutMillis = Math.max(1, config.commandTimeout().toMillis());
        this.timeoutNanos = config.commandTimeout().toNanos();
        this.sweeps = new SweepSchedule(timer, loop, config.timerTick().toNanos(), this::sweep);
        this.stallGraceNanos = Math.max(timeoutNanos, TimeUnit.SECONDS.toNanos(2));
        this.push = push;
        this.watchdog = new ConnectionWatchdog(this, timer, loop, config.reconnectMinDelay(),
                config.reconnectMaxDelay(), config.reconnectJitter(), this::connectOnce, config.listener());
    }

    /** The connector of its channels: the client's configuration, and the endpoint they go to. */
    Connector connector() {
        return connector;
    }

    /** @return the event loop of this connection */
    public EventLoop eventLoop() {
        return loop;
    }

    /** Event loop only: the current channel, {@code null} while down (tells links apart; tests probe its pipeline). */
    Channel channel() {
        return channel;
    }

    /**
     * How many commands this connection took and has not answered yet: queued, waiting for the connection,
     * or written and waiting for their reply. A snapshot from any thread, as of the event loop's last turn
     * here; costs nothing per command. For monitoring.
     */
    public int commandsInFlight() {
        return queue.size() + heldOnLoop;
    }

    /** Event loop: counts the commands it holds now, for {@link #commandsInFlight()}. */
    void countHeld() {
        heldOnLoop = parked.size() + (handler == null ? 0 : handler.inFlight());
    }

    /** @return whether the connection is connected and past its handshake (a snapshot) */
    public boolean isReady() {
        return ready;
    }

    /**
     * @return the TCP address the last channel connected to (the host name already looked up), or
     *     {@code null} before the first connect and over a Unix socket
     */
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    /**
     * Adds a lifecycle listener.
     *
     * @param listener called on the event loop
     */
    public void addListener(ConnectionListener listener) {
        listeners.add(listener);
    }

    /**
     * Connects for the first time; afterwards losses are repaired by the watchdog. A failed
     * attempt (refused, dropped during the handshake, no answer) is retried with the reconnect
     * backoff until the connect timeout has passed; credentials refused or a server that does not
     * speak Redis fail at once.
     *
     * @return completes on the event loop when ready; fails with {@code RedisAuthException},
     *     {@code RedisProtocolException}, or {@link RedisConnectionException} saying how many
     *     attempts were made and why the last one failed
     */
    public CompletableFuture<Void> start() {
        CompletableFuture<Void> started = new CompletableFuture<>();
        execute(() -> {
            // The connect deadline also bounds each attempt's handshake (startHandshakeDeadline).
            long deadlineNanos = System.nanoTime() + connector.config().connectTimeout().toNanos();
            startDeadlineNanos = deadlineNanos;
            watchdog.firstConnect(deadlineNanos,
                    cause -> closed || cause instanceof RedisAuthException || cause instanceof RedisProtocolException,
                    (last, attempts) -> connector.cannotConnect(this, last, attempts)).whenComplete((ok, failure) -> {
                        startDeadlineNanos = 0;
                        if (failure == null) {
                            started.complete(null);
                        } else {
                            started.completeExceptionally(failure);
                        }
                    });
        }, started);
        return started;
    }

    private CompletableFuture<Void> connectOnce() {
        if (closed) {
            return CompletableFuture.failedFuture(closedException());
        }
        CommandHandler fresh = new CommandHandler(this, push,
                push != null && connector.config().protocol() == HaspConfig.Protocol.RESP2);
        String target = connector.address();   // a moving connector's (redirect) may change meanwhile
        return connector.open(loop, fresh).thenCompose(ch -> Handshake.run(this, fresh).handle((ok, failure) -> {
            handshaking = null;
            if (failure == null && closed) {
                failure = new RedisClosedException(this + ": closed while connecting");
            } else if (failure == null && !target.equals(connector.address())) {
                failure = new RedisConnectionException(this + ": the server moved away from " + target);
            }
            if (failure != null) {
                ch.close();
                Throwable cause = Futures.unwrap(failure);
                if (cause instanceof RedisProtocolException || cause instanceof RedisAuthException) {
                    // The server answered, but not as a Redis server that accepts us: the next
                    // attempt will likely answer the same, so the waiting commands learn why now
                    // instead of timing out.
                    failWaiting(cause);
                }
                throw failure instanceof CompletionException ? (CompletionException) failure : new CompletionException(failure);
            }
            becomeReady(ch, fresh);
            return null;
        })).handle((ok, failure) -> {
            if (failure != null) {
                throw new CompletionException(failure instanceof CompletionException ? failure.getCause() : failure);
            }
            return null;
        });
    }

    private void becomeReady(Channel ch, CommandHandler fresh) {
        boolean reconnect = everConnected;
        everConnected = true;
        channel = ch;
        handler = fresh;
        remoteAddress = ch.remoteAddress() instanceof InetSocketAddress inet ? inet : null;
        ready = true;
        ch.closeFuture().addListener(f -> channelClosed(ch));
        tellListeners(true, reconnect);
        drain();
    }

    private void channelClosed(Channel ch) {
        if (channel != ch) {
            return;
        }
        // State first, callbacks after: failing the in-flight commands runs their callers'
        // continuations inline, and they may queue or write commands on this connection.
        CommandHandler lost = handler;
        channel = null;
        handler = null;
        ready = false;
        lost.failAll(new RedisConnectionException(this + ": connection lost"));
        countHeld();
        tellListeners(false, false);
        if (!closed) {
            log.info("{}: connection lost, reconnecting", this);
            watchdog.connectionLost();
        }
    }

    private void tellListeners(boolean connected, boolean reconnect) {
        for (ConnectionListener listener : listeners) {
            try {
                if (connected) {
                    listener.connected(this, reconnect);
                } else {
                    listener.disconnected(this);
                }
            } catch (RuntimeException e) {
                log.warn("{}: connection listener failed", this, e);
            }
        }
    }

    /**
     * Sends a command: starts its timeout and queues it for the next batch. Thread-safe. While
     * the connection is down the command waits for the reconnect, up to its timeout.
     *
     * @param command the command
     * @param <T> the command's reply type
     * @return {@code command}, the future of its reply
     */
    public <T> Command<T> dispatch(Command<T> command) {
        if (closed) {
            command.fail(closedException());
            return command;
        }
        startDeadline(command);
        send(command);
        return command;
    }

    /** Starts the command timeout: the command must complete within it. */
    void startDeadline(Command<?> command) {
        command.startDeadline(System.nanoTime() + timeoutNanos);
    }

    /**
     * Event loop: starts a handshake command's timeout, which while the client starts also ends
     * at the connect deadline (a server that accepts and never answers fails the start in time).
     */
    void startHandshakeDeadline(Command<?> command) {
        long deadline = System.nanoTime() + timeoutNanos;
        command.startDeadline(startDeadlineNanos != 0 ? Math.min(deadline, startDeadlineNanos) : deadline);
    }

    /** Event loop: the handshake's commands are in flight on {@code fresh}; time them out too. */
    void sweepHandshake(CommandHandler fresh) {
        handshaking = fresh;
        ensureSweep();
    }

    /** Event loop: a timeout sweep one timer tick from now ({@link SweepSchedule}). */
    private void ensureSweep() {
        if (!closed) {
            sweeps.ensure();
        }
    }

    private void sweep() {
        long now = System.nanoTime();
        if (handler != null) {
            handler.expire(now, timeoutMillis);
            if (handler.stalled(now, stallGraceNanos) && channel != null) {
                log.warn("{}: no byte from the server for {} ms past a command's timeout, closing the connection"
                        + " to reconnect", this, TimeUnit.NANOSECONDS.toMillis(stallGraceNanos));
                channel.close();
            }
        }
        if (handshaking != null) {
            handshaking.expire(now, timeoutMillis);
        }
        parked.expire(now, timeoutMillis);
        countHeld();
        if ((handler != null && handler.inFlight() > 0) || (handshaking != null && handshaking.inFlight() > 0)
                || !parked.isEmpty()) {
            ensureSweep();
        }
    }

    /**
     * Queues a command without (re)starting its timeout, e.g. a command sent again after
     * loading a missing script. Thread-safe.
     *
     * @param command the command
     */
    public void send(Command<?> command) {
        queue.offer(command);
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                loop.execute(drainTask);
            } catch (RejectedExecutionException shutDown) {
                command.fail(closedException());
            }
        }
        if (closed) {
            // close() drained the queue on the event loop before or after this offer; either
            // way this command must not wait for a connection that will never come back
            command.fail(closedException());
        }
    }

    private void drain() {
        drainScheduled.set(false);
        if (!ready) {
            parked.takeAll(queue);
            countHeld();
            if (!parked.isEmpty()) {
                ensureSweep();
            }
            return;
        }
        // A flush can fail and close the channel inline: channelClosed() then retires this
        // handler (and fails what it had in flight) before flush() returns. Work on the handler
        // this drain started with, and check afterwards whether it is still the current one.
        CommandHandler current = handler;
        if (!parked.isEmpty()) {
            current.writeAll(parked.queue());
        }
        current.writeAll(queue);
        current.flush();
        countHeld();
        if (handler != current) {
            // Lost during the flush: whatever the retired handler still holds fails like the rest
            // of its in-flight commands. Commands queued meanwhile scheduled their own drain,
            // which parks them until the reconnect.
            current.failAll(new RedisConnectionException(this + ": connection lost while writing"));
            return;
        }
        if (current.inFlight() > 0) {
            ensureSweep();
        }
    }

    /**
     * Event loop only: writes a command now if the connection is ready (pub/sub uses this to
     * keep its subscriptions in step with the connection). The flush follows in this turn.
     *
     * @param command the command
     * @return {@code false} if the connection is not ready (nothing was written)
     */
    public boolean writeNow(Command<?> command) {
        if (!ready) {
            return false;
        }
        handler.write(command);
        if (drainScheduled.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
        return true;
    }

    /**
     * Closes the connection: no more reconnects; every queued, waiting and in-flight command
     * fails with {@link RedisClosedException}.
     *
     * @return completes when the channel is closed
     */
    public CompletableFuture<Void> close() {
        closed = true;
        CompletableFuture<Void> done = new CompletableFuture<>();
        execute(() -> {
            watchdog.stop();
            ready = false;
            RedisClosedException failure = closedException();
            if (handler != null) {
                handler.failAll(failure);
            }
            failWaiting(failure);
            Channel ch = channel;
            if (ch == null) {
                done.complete(null);
            } else {
                ch.close().addListener(f -> done.complete(null));
            }
        }, done);
        return done;
    }

    /**
     * Closes the connection if it was up once and is down now (lost and reconnecting): no more
     * reconnects, and every command waiting for it fails with {@link NotSentException}, since none of
     * them was written. A connection that is up stays open (its commands in flight may have run), and
     * so does one still making its first connection (its start decides).
     *
     * @param why what the failed commands' message says after the connection's name
     * @return completes on the event loop with whether it was closed
     */
    public CompletableFuture<Boolean> closeIfDown(String why) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        execute(() -> {
            if (ready || closed || !everConnected) {
                done.complete(false);
                return;
            }
            closed = true;
            watchdog.stop();
            failWaiting(new NotSentException(this + ": " + why + "; the command was not sent"));
            Channel ch = channel;
            if (handler != null) {
                handler.failAll(closedException());   // a reconnect's handshake, if one was under way
            }
            if (ch != null) {
                ch.close();
            }
            done.complete(true);
        }, done);
        return done;
    }

    /**
     * Reconnects to where the connector points now (it moved: a Sentinel deployment's new master). A
     * channel that is up is dropped: its commands in flight fail as on any loss, and every command sent
     * from now on waits for the new channel; a connection that is down reconnects at once.
     *
     * @return completes on the event loop once no command can be written to the old server any more
     */
    public CompletableFuture<Void> redirect() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        execute(() -> {
            if (channel != null) {
                Channel old = channel;
                channelClosed(old);
                old.close();
            } else if (!closed) {
                watchdog.hurry();
            }
            done.complete(null);
        }, done);
        return done;
    }

    private void execute(Runnable task, CompletableFuture<?> onRejected) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException shutDown) {
            onRejected.completeExceptionally(closedException());
        }
    }

    /** Event loop only: fails every command queued or waiting for the connection with {@code cause}. */
    private void failWaiting(Throwable cause) {
        Command<?> command;
        while ((command = queue.poll()) != null) {
            command.fail(cause);
        }
        parked.failAll(cause);
        countHeld();
    }

    private RedisClosedException closedException() {
        return new RedisClosedException(this + ": client closed");
    }

    @Override
    public String toString() {
        return "hasp[" + label + " " + connector.address() + "]";
    }
}
