package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.resp.RespFixtures.Fixture;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(LeakCheck.class)
class RespValueDecoderTest {

    static List<Fixture> fixtures() {
        return RespFixtures.all();
    }

    private static ByteBuf buffer(byte[] bytes, int from, int to) {
        return ByteBufAllocator.DEFAULT.buffer(Math.max(1, to - from)).writeBytes(bytes, from, to - from);
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void decodesFixtureSplitAtEveryByte(Fixture fixture) {
        byte[] wire = fixture.wire();
        for (int split = 0; split <= wire.length; split++) {
            EmbeddedChannel channel = new EmbeddedChannel(new RespValueDecoder());
            channel.writeInbound(buffer(wire, 0, split));
            if (split < wire.length) {
                assertNull(channel.readInbound(), "nothing before byte " + split);
                channel.writeInbound(buffer(wire, split, wire.length));
            }
            assertEquals(fixture.value(), channel.readInbound(), "split at " + split);
            assertFalse(channel.finish());
        }
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void decodesFixtureOneByteAtATime(Fixture fixture) {
        byte[] wire = fixture.wire();
        EmbeddedChannel channel = new EmbeddedChannel(new RespValueDecoder());
        for (int i = 0; i < wire.length; i++) {
            channel.writeInbound(buffer(wire, i, i + 1));
            if (i < wire.length - 1) {
                assertNull(channel.readInbound(), "nothing after byte " + i);
            }
        }
        assertEquals(fixture.value(), channel.readInbound());
        assertFalse(channel.finish());
    }

    @Test
    void decodesEveryFixtureFromOneBufferAndFromEveryTwoWaySplit() {
        List<Fixture> all = fixtures();
        ByteBuf joined = ByteBufAllocator.DEFAULT.buffer();
        all.forEach(f -> joined.writeBytes(f.wire()));
        byte[] wire = new byte[joined.readableBytes()];
        joined.readBytes(wire);
        joined.release();
        for (int split = 0; split <= wire.length; split += 7) {
            EmbeddedChannel channel = new EmbeddedChannel(new RespValueDecoder());
            channel.writeInbound(buffer(wire, 0, split));
            channel.writeInbound(buffer(wire, split, wire.length));
            for (Fixture f : all) {
                assertEquals(f.value(), channel.readInbound(), f.name() + " with split at " + split);
            }
            assertFalse(channel.finish());
        }
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void decodesFixtureOneByteAtATimeWithCompositeCumulation(Fixture fixture) {
        byte[] wire = fixture.wire();
        RespValueDecoder decoder = new RespValueDecoder();
        decoder.setCumulator(ByteToMessageDecoder.COMPOSITE_CUMULATOR);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        for (int i = 0; i < wire.length; i++) {
            channel.writeInbound(buffer(wire, i, i + 1));
        }
        assertEquals(fixture.value(), channel.readInbound());
        assertFalse(channel.finish());
    }

    @Test
    void failsOnMalformedInputAndDropsTheRest() {
        EmbeddedChannel channel = new EmbeddedChannel(new RespValueDecoder());
        byte[] bad = ":1\r\n:12x\r\n+OK\r\n".getBytes(StandardCharsets.US_ASCII);
        DecoderException e = assertThrows(DecoderException.class, () -> channel.writeInbound(buffer(bad, 0, bad.length)));
        RespProtocolException cause = assertInstanceOf(RespProtocolException.class, e.getCause());
        assertEquals(7, cause.offset());
        assertTrue(cause.getMessage().contains("integer: non-digit 0x78 'x'"), cause.getMessage());
        assertEquals(new RespInteger(1), channel.readInbound());
        byte[] more = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
        channel.writeInbound(buffer(more, 0, more.length));
        assertNull(channel.readInbound());
        assertFalse(channel.finish());
    }

    @Test
    void releasesPartialReplyOnClose() {
        EmbeddedChannel channel = new EmbeddedChannel(new RespValueDecoder());
        byte[] partial = "*2\r\n$5\r\nhel".getBytes(StandardCharsets.US_ASCII);
        channel.writeInbound(buffer(partial, 0, partial.length));
        assertNull(channel.readInbound());
        assertFalse(channel.finish());
    }
}
