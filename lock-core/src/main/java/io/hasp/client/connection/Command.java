package io.hasp.client.connection;

import io.hasp.client.RedisException;
import io.hasp.client.RedisServerException;
import io.hasp.client.RedisTimeoutException;
import io.hasp.client.Reply;
import io.hasp.resp.RespType;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * One command on its way to the server and back: it is its own future and the sink its reply
 * is decoded into. A command sits in its connection's in-flight queue from the write until its
 * reply arrives, also when it has already completed (timed out, cancelled): the late reply is
 * then matched to it and dropped, so the queue never shifts.
 *
 * <p>Subclasses say how the command is encoded. Its timeout is a deadline checked by the
 * connection's sweep on the shared timer. The future completes on the connection's event
 * loop (replies, connection loss, timeouts); only {@code cancel} and {@code complete} called by
 * the application complete it elsewhere. Decoding state is confined to the event loop.
 *
 * @param <T> the decoded reply's type
 */
public abstract class Command<T> extends CompletableFuture<T> implements FrameSink {

    private final Reply<T> reply;

    // Decoding state, event loop only; reset at every frame end.
    private Reply.Collector<T> collector;
    private int attributeDepth;
    private T value;
    private RuntimeException failure;
    private String serverError;

    // Written once by the dispatching thread before the command is published to the event loop.
    private long deadline;

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

    // ---- FrameSink: the reply's events, event loop only ----

    @Override
    public final void frameEnd(RedisConnection connection) {
        RuntimeException failed = failure;
        String error = serverError;
        Reply.Collector<T> aggregate = collector;
        T result = value;
        failure = null;
        serverError = null;
        collector = null;
        value = null;
        attributeDepth = 0;
        if (isDone()) {
            return;
        }
        if (failed == null && error != null) {
            RedisServerException serverFailure = new RedisServerException(error);
            if (recover(serverFailure, connection)) {
                return;
            }
            failed = serverFailure;
        }
        if (failed == null && aggregate != null) {
            try {
                result = aggregate.result();
            } catch (RuntimeException e) {
                failed = e;
            }
        }
        if (failed != null) {
            fail(failed instanceof RedisServerException ? failed
                    : new RedisException(name() + ": cannot decode the reply: " + failed.getMessage(), failed));
        } else {
            complete(result);
        }
    }

    private boolean topLevel() {
        return collector == null && attributeDepth == 0;
    }

    private boolean skipping() {
        return attributeDepth > 0 || failure != null || isDone();
    }

    @Override
    public final void simpleString(ByteBuf content) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.simpleString(content);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.simpleString(content));
        }
    }

    @Override
    public final void error(ByteBuf message) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            serverError = message.toString(StandardCharsets.UTF_8);
        } else {
            forward(c -> c.error(message));
        }
    }

    @Override
    public final void integer(long v) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.integer(v);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.integer(v));
        }
    }

    @Override
    public final void bulkString(ByteBuf content) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.bulkString(content);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.bulkString(content));
        }
    }

    @Override
    public final void verbatimString(ByteBuf format, ByteBuf content) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.verbatimString(format, content);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.verbatimString(format, content));
        }
    }

    @Override
    public final void nullValue() {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.nullValue();
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(Reply.Collector::nullValue);
        }
    }

    @Override
    public final void booleanValue(boolean v) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.booleanValue(v);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.booleanValue(v));
        }
    }

    @Override
    public final void doubleValue(double v) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.doubleValue(v);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.doubleValue(v));
        }
    }

    @Override
    public final void bigNumber(ByteBuf digits) {
        if (skipping()) {
            return;
        }
        if (topLevel()) {
            try {
                value = reply.bigNumber(digits);
            } catch (RuntimeException e) {
                failure = e;
            }
        } else {
            forward(c -> c.bigNumber(digits));
        }
    }

    @Override
    public final void aggregateStart(RespType type, int size) {
        if (attributeDepth > 0 || (topLevel() && type == RespType.ATTRIBUTE)) {
            attributeDepth++;  // a top-level attribute annotates the reply; hasp ignores it
            return;
        }
        if (failure != null || isDone()) {
            return;
        }
        if (collector == null) {
            try {
                collector = reply.aggregate();
            } catch (RuntimeException e) {
                failure = e;
                return;
            }
        }
        forward(c -> c.aggregateStart(type, size));
    }

    @Override
    public final void aggregateEnd(RespType type) {
        if (attributeDepth > 0) {
            attributeDepth--;
            return;
        }
        if (failure != null || isDone()) {
            return;
        }
        forward(c -> c.aggregateEnd(type));
    }

    private void forward(java.util.function.Consumer<Reply.Collector<T>> event) {
        try {
            event.accept(collector);
        } catch (RuntimeException e) {
            failure = e;
        }
    }
}
