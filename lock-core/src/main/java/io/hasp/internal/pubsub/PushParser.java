package io.hasp.internal.pubsub;

import io.hasp.internal.connection.FrameSink;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.resp.RespType;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Decodes the frames of a pub/sub connection ({@code [message, channel, payload]},
 * {@code [subscribe, channel, count]}, ...) into calls on a {@link Handler}. The first four
 * top-level elements are kept (strings or integers as text); deeper elements are ignored.
 * Event loop only.
 */
final class PushParser implements FrameSink {

    /** What a push frame means. */
    interface Handler {
        /**
         * @param kind the frame's first element, e.g. {@code "message"}
         * @param first the second element, usually the channel
         * @param second the third element: the payload or the subscription count
         */
        void push(String kind, String first, String second);

        /** An error reply, which answers the oldest (un)subscribe command not yet answered. */
        void error(String message);
    }

    private final Handler handler;
    private final String[] elements = new String[4];
    private int count;
    private int depth;
    private String error;

    PushParser(Handler handler) {
        this.handler = handler;
    }

    private void element(String value) {
        if (depth == 1 && count < elements.length) {
            elements[count] = value;
        }
        if (depth == 1) {
            count++;
        }
    }

    @Override
    public void frameEnd(RedisConnection connection) {
        String kind = elements[0];
        String first = elements[1];
        String second = elements[2];
        String failure = error;
        java.util.Arrays.fill(elements, null);
        count = 0;
        depth = 0;
        error = null;
        if (failure != null) {
            handler.error(failure);
        } else if (kind != null) {
            handler.push(kind, first, second);
        }
    }

    @Override
    public void simpleString(ByteBuf content) {
        element(content.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void error(ByteBuf message) {
        if (depth == 0) {
            error = message.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void integer(long value) {
        element(Long.toString(value));
    }

    @Override
    public void bulkString(ByteBuf content) {
        element(content.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void verbatimString(ByteBuf format, ByteBuf content) {
        element(content.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void nullValue() {
        element(null);
    }

    @Override
    public void booleanValue(boolean value) {
        element(Boolean.toString(value));
    }

    @Override
    public void doubleValue(double value) {
        element(Double.toString(value));
    }

    @Override
    public void bigNumber(ByteBuf digits) {
        element(digits.toString(StandardCharsets.US_ASCII));
    }

    @Override
    public void aggregateStart(RespType type, int size) {
        if (depth == 1) {
            element(null);
        }
        depth++;
    }

    @Override
    public void aggregateEnd(RespType type) {
        depth--;
    }
}
