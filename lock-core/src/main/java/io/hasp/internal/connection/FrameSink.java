package io.hasp.internal.connection;

import io.hasp.resp.RespSink;

/**
 * A {@link RespSink} that also learns when its top-level reply is complete. The connection's
 * decoder picks one sink per reply frame (its {@code ReplyDecoder} bound to the head of the
 * in-flight queue, or the push sink) and calls {@link #frameEnd(RedisConnection)} after the frame's last event.
 *
 * <p>Called on the connection's event loop only.
 */
public interface FrameSink extends RespSink {

    /**
     * The reply frame whose events were just delivered is complete.
     *
     * @param connection the connection the frame came from
     */
    void frameEnd(RedisConnection connection);
}
