package io.hasp.internal.connection;

import io.hasp.RedisConnectionException;
import io.hasp.RedisProtocolException;
import io.hasp.resp.RespProtocolException;
import io.hasp.resp.RespReader;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline handler of one channel: encodes commands (many per buffer, one flush per
 * batch), keeps the FIFO of commands in flight, and decodes replies with one {@link RespReader}
 * over the cumulation buffer, completing the head of the FIFO with each reply.
 *
 * <p>Push frames (RESP3 {@code >}, and on a RESP2 pub/sub connection every array) go to the
 * push sink instead. A malformed stream closes the channel and fails everything in flight with
 * {@link RedisProtocolException}; a lost channel fails it with {@link RedisConnectionException}.
 * Commands are never re-sent. Not thread-safe: every method runs on the channel's event loop.
 */
final class CommandHandler extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(CommandHandler.class);
    private static final int MAX_BATCH = 256;

    private final RedisConnection connection;
    private final FrameSink push;
    private final boolean arraysArePushes;
    private final ArrayDeque<Command<?>> inFlight = new ArrayDeque<>();
    private final List<Command<?>> batch = new ArrayList<>(MAX_BATCH);
    private final RespReader reader = new RespReader();
    private final ReplyDecoder replies = new ReplyDecoder();
    private FrameSink current;
    private ChannelHandlerContext ctx;
    private long lastReadNanos = System.nanoTime();
    private boolean broken;

    /**
     * @param connection the owner, told about frames and failures
     * @param push the sink for push frames, {@code null} on a command connection
     * @param arraysArePushes whether every top-level array is a push (RESP2 pub/sub connection)
     */
    CommandHandler(RedisConnection connection, FrameSink push, boolean arraysArePushes) {
        this.connection = connection;
        this.push = push;
        this.arraysArePushes = arraysArePushes;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Number of commands written and waiting for their reply. */
    int inFlight() {
        return inFlight.size();
    }

    /**
     * Encodes and writes every command of {@code source} (skipping completed ones) without
     * flushing; the caller flushes once afterwards.
     */
    void writeAll(Queue<Command<?>> source) {
        for (;;) {
            int size = 0;
            Command<?> command;
            while (batch.size() < MAX_BATCH && (command = source.poll()) != null) {
                if (!command.isDone()) {
                    batch.add(command);
                    size += command.encodedSize();
                }
            }
            if (batch.isEmpty()) {
                return;
            }
            ByteBuf out = ctx.alloc().ioBuffer(size);
            for (int i = 0, n = batch.size(); i < n; i++) {   // indexed: no iterator per batch
                Command<?> c = batch.get(i);
                c.encode(out);
                if (c.expectsReply()) {
                    inFlight.add(c);
                }
            }
            batch.clear();
            ctx.write(out, ctx.voidPromise());
        }
    }

    /** Encodes and writes one command without flushing. */
    void write(Command<?> command) {
        ByteBuf out = ctx.alloc().ioBuffer(command.encodedSize());
        command.encode(out);
        if (command.expectsReply()) {
            inFlight.add(command);
        }
        ctx.write(out, ctx.voidPromise());
    }

    /** Flushes what was written. */
    void flush() {
        ctx.flush();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        lastReadNanos = System.nanoTime();
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        connection.countHeld();   // once per read, not per reply
        super.channelReadComplete(ctx);
    }

    /**
     * Whether the connection looks dead: its oldest command in flight has been overdue for
     * {@code graceNanos} and not a byte has arrived since its deadline (a half-open TCP
     * connection, a blackholed route). Closing it lets the watchdog reconnect.
     *
     * @param now the current {@link System#nanoTime()}
     * @param graceNanos how long past its deadline the oldest command may stay unanswered
     * @return {@code true} when the connection should be closed
     */
    boolean stalled(long now, long graceNanos) {
        Command<?> oldest = inFlight.peek();
        return oldest != null && oldest.expired(now - graceNanos) && !oldest.expired(lastReadNanos);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            while (in.isReadable()) {
                if (reader.atFrameStart()) {
                    current = sinkFor(in.getByte(in.readerIndex()));
                }
                if (!reader.read(in, current)) {
                    return;
                }
                FrameSink done = current;
                current = null;
                if (done == replies && replies.command() == inFlight.peek()) {
                    inFlight.poll();
                }
                done.frameEnd(connection);
            }
        } catch (RespProtocolException | UnexpectedReplyException e) {
            broken = true;
            in.skipBytes(in.readableBytes());
            RedisProtocolException failure = new RedisProtocolException(
                    connection + ": malformed reply stream, closing the connection: " + e.getMessage(), e);
            log.warn("{}", failure.getMessage());
            failAll(failure);
            ctx.close();
        }
    }

    private FrameSink sinkFor(byte first) {
        if (first == '>' || (arraysArePushes && first == '*')) {
            return push != null ? push : DiscardingSink.INSTANCE;
        }
        Command<?> head = inFlight.peek();
        if (head != null) {
            return replies.start(head);
        }
        if (push != null) {
            return push;   // e.g. an error answering SUBSCRIBE on a pub/sub connection
        }
        throw new UnexpectedReplyException("a reply arrived with no command waiting for it");
    }

    /**
     * Times out the commands in flight whose deadline has passed, scanning from the oldest and
     * stopping at the first one still in time (deadlines follow the write order, give or take a
     * few microseconds between dispatching threads). Expired commands stay queued for their reply.
     *
     * @param now the current {@link System#nanoTime()}
     * @param timeoutMillis the timeout, for the message
     */
    void expire(long now, long timeoutMillis) {
        for (Command<?> command : inFlight) {
            if (command.isDone()) {
                continue;
            }
            if (!command.expired(now)) {
                return;
            }
            command.expire(timeoutMillis);
        }
    }

    /**
     * Fails every command in flight (they are never re-sent).
     *
     * @param cause the failure
     */
    void failAll(Throwable cause) {
        Command<?> command;
        while ((command = inFlight.poll()) != null) {
            command.fail(cause);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        failAll(new RedisConnectionException(connection + ": connection lost with "
                + inFlight.size() + " command(s) in flight"));
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        failAll(new RedisConnectionException(connection + ": connection closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: closing after I/O failure", connection, cause);
        ctx.close();
    }

    /** A frame arrived that no sink can take: the stream is out of sync. */
    private static final class UnexpectedReplyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnexpectedReplyException(String message) {
            super(message, null, false, false);
        }
    }
}
