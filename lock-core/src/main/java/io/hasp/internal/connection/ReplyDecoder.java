package io.hasp.internal.connection;

import io.hasp.RedisException;
import io.hasp.RedisServerException;
import io.hasp.Reply;
import io.hasp.resp.RespType;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Decodes the reply frame of one command at a time into that command's value: a connection
 * decodes its replies one after another, so this state lives once per connection instead of in
 * every command. A command that completed before its reply arrived (timed out, cancelled) has
 * its reply consumed and dropped.
 *
 * <p>Scalar replies go straight through the command's {@link Reply}; aggregate replies through
 * the collector it creates. Not thread-safe: event loop only; reset at every frame end.
 */
final class ReplyDecoder implements FrameSink {

    private Command<?> command;
    private Reply.Collector<?> collector;
    private int attributeDepth;
    private Object value;
    private RuntimeException failure;
    private String serverError;

    /**
     * Starts decoding the reply of {@code answered}.
     *
     * @param answered the command the next frame answers (the head of the in-flight queue)
     * @return this decoder, the sink of the frame
     */
    FrameSink start(Command<?> answered) {
        this.command = answered;
        return this;
    }

    /** @return the command whose reply is being decoded, {@code null} between frames */
    Command<?> command() {
        return command;
    }

    @Override
    public void frameEnd(RedisConnection connection) {
        Command<?> done = command;
        RuntimeException failed = failure;
        String error = serverError;
        Reply.Collector<?> aggregate = collector;
        Object result = value;
        command = null;
        failure = null;
        serverError = null;
        collector = null;
        value = null;
        attributeDepth = 0;
        if (done == null || done.isDone()) {
            return;
        }
        if (failed == null && error != null) {
            RedisServerException serverFailure = new RedisServerException(error);
            if (done.recover(serverFailure, connection)) {
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
            done.fail(failed instanceof RedisServerException ? failed
                    : new RedisException(done.name() + ": cannot decode the reply: " + failed.getMessage(), failed));
        } else {
            done.completeReply(result);
        }
    }

    private boolean skipping() {
        return attributeDepth > 0 || failure != null || command.isDone();
    }

    // Past skipping(), the reply is at its top level exactly when no collector is open.

    @Override
    public void simpleString(ByteBuf content) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().simpleString(content);
            } else {
                collector.simpleString(content);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void error(ByteBuf message) {
        if (skipping()) {
            return;
        }
        if (collector == null) {
            serverError = message.toString(StandardCharsets.UTF_8);
            return;
        }
        try {
            collector.error(message);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void integer(long v) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().integer(v);
            } else {
                collector.integer(v);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void bulkString(ByteBuf content) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().bulkString(content);
            } else {
                collector.bulkString(content);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void verbatimString(ByteBuf format, ByteBuf content) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().verbatimString(format, content);
            } else {
                collector.verbatimString(format, content);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void nullValue() {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().nullValue();
            } else {
                collector.nullValue();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void booleanValue(boolean v) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().booleanValue(v);
            } else {
                collector.booleanValue(v);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void doubleValue(double v) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().doubleValue(v);
            } else {
                collector.doubleValue(v);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void bigNumber(ByteBuf digits) {
        if (skipping()) {
            return;
        }
        try {
            if (collector == null) {
                value = command.reply().bigNumber(digits);
            } else {
                collector.bigNumber(digits);
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void aggregateStart(RespType type, int size) {
        if (attributeDepth > 0 || (collector == null && type == RespType.ATTRIBUTE)) {
            attributeDepth++;  // a top-level attribute annotates the reply; hasp ignores it
            return;
        }
        if (failure != null || command.isDone()) {
            return;
        }
        try {
            if (collector == null) {
                collector = command.reply().aggregate();
            }
            collector.aggregateStart(type, size);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void aggregateEnd(RespType type) {
        if (attributeDepth > 0) {
            attributeDepth--;
            return;
        }
        if (failure != null || command.isDone()) {
            return;
        }
        try {
            collector.aggregateEnd(type);
        } catch (RuntimeException e) {
            failure = e;
        }
    }
}
