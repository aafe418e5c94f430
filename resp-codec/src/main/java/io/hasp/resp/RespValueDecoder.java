package io.hasp.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * A Netty inbound handler that decodes RESP replies into {@link RespValue} trees, one message
 * per reply. Buffers are released by {@link ByteToMessageDecoder}; the emitted values hold no
 * buffers. Not sharable: one instance per channel.
 *
 * <p>Malformed input fails with a {@link RespProtocolException} (wrapped in Netty's
 * {@code DecoderException} by the base class); after that the stream is out of sync, so this
 * decoder discards everything it receives: close the channel.
 */
public final class RespValueDecoder extends ByteToMessageDecoder {

    private final RespReader reader;
    private final RespValueBuilder builder = new RespValueBuilder();
    private boolean failed;

    /** Creates a decoder with {@link RespLimits#DEFAULT}. */
    public RespValueDecoder() {
        this(RespLimits.DEFAULT);
    }

    /**
     * Creates a decoder with the given limits.
     *
     * @param limits the bounds to enforce
     */
    public RespValueDecoder(RespLimits limits) {
        this.reader = new RespReader(limits);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.isReadable()) {
            boolean complete;
            try {
                complete = reader.read(in, builder);
            } catch (RuntimeException e) {
                failed = true;
                builder.reset();
                in.skipBytes(in.readableBytes());
                throw e;
            }
            if (!complete) {
                return;
            }
            out.add(builder.build());
        }
    }
}
