package io.hasp.internal.connection;

import io.hasp.resp.RespType;
import io.netty.buffer.ByteBuf;

/** Consumes a push frame nobody listens to (e.g. a RESP3 push on a command connection). Stateless. */
final class DiscardingSink implements FrameSink {

    static final DiscardingSink INSTANCE = new DiscardingSink();

    private DiscardingSink() {
    }

    @Override public void frameEnd(RedisConnection connection) { }
    @Override public void simpleString(ByteBuf content) { }
    @Override public void error(ByteBuf message) { }
    @Override public void integer(long value) { }
    @Override public void bulkString(ByteBuf content) { }
    @Override public void verbatimString(ByteBuf format, ByteBuf content) { }
    @Override public void nullValue() { }
    @Override public void booleanValue(boolean value) { }
    @Override public void doubleValue(double value) { }
    @Override public void bigNumber(ByteBuf digits) { }
    @Override public void aggregateStart(RespType type, int size) { }
    @Override public void aggregateEnd(RespType type) { }
}
