package io.hasp.bench.codec;

import io.hasp.resp.RespSink;
import io.hasp.resp.RespType;
import io.netty.buffer.ByteBuf;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A {@link RespSink} that hands every event to a JMH {@link Blackhole} and reads one byte of
 * each payload, as a client that inspects replies without building objects would. Not thread-safe.
 */
public final class BlackholeSink implements RespSink {

    private final Blackhole blackhole;

    /**
     * Creates a sink feeding {@code blackhole}.
     *
     * @param blackhole the JMH blackhole of the running benchmark
     */
    public BlackholeSink(Blackhole blackhole) {
        this.blackhole = blackhole;
    }

    private void consume(ByteBuf content) {
        blackhole.consume(content.readableBytes());
        if (content.isReadable()) {
            blackhole.consume(content.getByte(content.readerIndex()));
        }
    }

    @Override
    public void simpleString(ByteBuf content) {
        consume(content);
    }

    @Override
    public void error(ByteBuf message) {
        consume(message);
    }

    @Override
    public void integer(long value) {
        blackhole.consume(value);
    }

    @Override
    public void bulkString(ByteBuf content) {
        consume(content);
    }

    @Override
    public void verbatimString(ByteBuf format, ByteBuf content) {
        consume(content);
    }

    @Override
    public void nullValue() {
        blackhole.consume(0);
    }

    @Override
    public void booleanValue(boolean value) {
        blackhole.consume(value);
    }

    @Override
    public void doubleValue(double value) {
        blackhole.consume(value);
    }

    @Override
    public void bigNumber(ByteBuf digits) {
        consume(digits);
    }

    @Override
    public void aggregateStart(RespType type, int size) {
        blackhole.consume(size);
    }

    @Override
    public void aggregateEnd(RespType type) {
        blackhole.consume(type);
    }
}
