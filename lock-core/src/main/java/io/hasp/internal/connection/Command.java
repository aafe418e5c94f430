package io.hasp.internal.connection;

import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.Reply;
import io.hasp.internal.HookedFuture;
import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;

/**
 * One command on its way to the server and back: it is its own future, and its {@link Reply}
 * says how the connection's {@code ReplyDecoder} turns the reply into its value. A command sits
 * in its connection's in-flight queue from the write until its reply arrives, also when it has
 * already completed (timed out, cancelled): the late reply is then matched to it and dropped, so
 * the queue never shifts.
 *
 * <p>Subclasses say how the command is encoded. Its timeout is a deadline checked by the
 * connection's sweep on the shared timer. The future completes on the connection's event
 * loop (replies, connection loss, timeouts); only {@code cancel} and {@code complete} called by
 * the application complete it elsewhere. The decoding state lives once per connection, not in
 * every command (a connection decodes one reply at a time), which keeps commands small.
 *
 * @param <T> the decoded reply's type
 */
public abstract class Command<T> extends HookedFuture<T> {

    private static final VarHandle WHEN_DONE;

    static {
        try {
            WHEN_DONE = MethodHandles.lookup().findVarHandle(Command.class, "whenDone", BiConsumer.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Reply<T> reply;

    // Written once by the dispatching thread before the command is published to the event loop.
    private long deadline;

    /** The one action {@link #whenDone} registered, until it runs; accessed through WHEN_DONE. */
    @SuppressWarnings("unused")
    private volatile BiConsumer<? super T, ? super Throwable> whenDone;

    /**
     * Creates a command whose reply is decoded by {@code reply}.
     *
     * @param reply the reply decoder, not {@code null}
     */
    protected Command(Reply<T> reply) {
        if (reply == null) {
            throw new IllegalArgumentException("reply: null (expected: a Reply, e.g. Replies.STRING)");
        }
        this.reply = reply;
    }

    /**
     * The command's name for messages, e.g. {@code "EVALSHA"}; never its arguments.
     *
     * @return the name
     */
    public abstract String name();

    /**
     * The exact number of bytes {@link #encode(ByteBuf)} writes.
     *
     * @return the encoded size
     */
    public abstract int encodedSize();

    /**
     * Writes the command as a RESP array of bulk strings.
     *
     * @param out the buffer, with at least {@link #encodedSize()} writable bytes
     */
    public abstract void encode(ByteBuf out);

    /**
     * Whether the server answers this command with a reply in the in-flight order. Pub/sub
     * (un)subscriptions are answered by push frames instead and return {@code false}.
     *
     * @return {@code true} for ordinary commands
     */
    public boolean expectsReply() {
        return true;
    }

    /**
     * Called on the event loop when the server answered with an error. A subclass may recover
     * (e.g. load a missing script and send itself again) and return {@code true}; the command
     * then stays incomplete.
     *
     * @param error the server's error
     * @param connection the connection the reply came from
     * @return {@code true} when the command was re-sent and must not complete now
     */
    protected boolean recover(RedisServerException error, RedisConnection connection) {
        return false;
    }

    /**
     * Sets the command's deadline unless it already has one (a re-sent command keeps its first).
     *
     * @param deadlineNanos the {@link System#nanoTime()} by which the reply must have arrived
     */
    final void startDeadline(long deadlineNanos) {
        if (deadline == 0) {
            deadline = deadlineNanos == 0 ? 1 : deadlineNanos;
        }
    }

    /**
     * Whether the deadline has passed.
     *
     * @param now the current {@link System#nanoTime()}
     * @return {@code true} once the command has timed out (and is not complete yet)
     */
    final boolean expired(long now) {
        return deadline != 0 && now - deadline >= 0;
    }

    /**
     * Event loop: fails the command with {@link RedisTimeoutException}. A command in flight stays
     * in the in-flight queue so that its late reply is matched to it and dropped.
     *
     * @param timeoutMillis the timeout, for the message
     */
    final void expire(long timeoutMillis) {
        completeExceptionally(new RedisTimeoutException(name() + ": no reply within " + timeoutMillis + " ms"));
    }

    /**
     * Event loop: fails a command that was never written because the connection stayed down.
     *
     * @param timeoutMillis the timeout, for the message
     */
    final void expireUnsent(long timeoutMillis) {
        completeExceptionally(new RedisTimeoutException(name() + ": not sent within " + timeoutMillis
                + " ms, the connection is down (reconnecting)"));
    }

    /**
     * Fails the command (connection lost, client closed, protocol error).
     *
     * @param cause the failure
     */
    final void fail(Throwable cause) {
        completeExceptionally(cause);
    }

    /**
     * Runs {@code action} once, when this command completes (at once, on the calling thread, when
     * it already has), with its value or its failure, like {@link #whenComplete} but without the
     * dependent future and node that {@code whenComplete} allocates: a command carries one such
     * action. The failure is passed as the command was failed with (not wrapped).
     *
     * @param action the action, not {@code null}
     * @return {@code false}, running nothing, when an action was registered before: use
     *     {@code whenComplete} then
     */
    public final boolean whenDone(BiConsumer<? super T, ? super Throwable> action) {
        if (action == null) {
            throw new IllegalArgumentException("action: null (expected: a BiConsumer)");
        }
        if (!WHEN_DONE.compareAndSet(this, null, action)) {
            return false;
        }
        if (isDone() && WHEN_DONE.compareAndSet(this, action, null)) {
            runDone(action);
        }
        return true;
    }

    private void runDone(BiConsumer<? super T, ? super Throwable> action) {
        T value = null;
        Throwable failure = null;
        try {
            value = getNow(null);
        } catch (CompletionException e) {
            failure = e.getCause() != null ? e.getCause() : e;
        } catch (CancellationException e) {
            failure = e;
        }
        action.accept(value, failure);
    }

    /** Runs the {@link #whenDone} action, if one is registered and has not run yet. */
    @Override
    @SuppressWarnings("unchecked")
    protected final void completed() {
        BiConsumer<? super T, ? super Throwable> action =
                (BiConsumer<? super T, ? super Throwable>) WHEN_DONE.getAndSet(this, null);
        if (action != null) {
            runDone(action);
        }
    }

    /** @return how this command's reply is decoded */
    final Reply<T> reply() {
        return reply;
    }

    /**
     * Event loop: completes the command with its decoded reply.
     *
     * @param decoded the value {@link #reply()} (or its collector) produced for this command
     */
    @SuppressWarnings("unchecked")
    final void completeReply(Object decoded) {
        complete((T) decoded);
    }
}
