package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.resp.RespFixtures.Fixture;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(LeakCheck.class)
class RespReaderTest {

    static List<Fixture> fixtures() {
        return RespFixtures.all();
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void decodesWholeFrame(Fixture fixture) {
        ByteBuf in = Unpooled.wrappedBuffer(fixture.wire());
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            assertTrue(reader.read(in, builder));
            assertEquals(fixture.value(), builder.build());
            assertFalse(in.isReadable());
            assertTrue(reader.atFrameStart());
        } finally {
            in.release();
        }
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void decodesOneByteAtATime(Fixture fixture) {
        ByteBuf in = Unpooled.buffer();
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            byte[] wire = fixture.wire();
            for (int i = 0; i < wire.length; i++) {
                in.writeByte(wire[i]);
                boolean done = reader.read(in, builder);
                assertEquals(i == wire.length - 1, done, "complete after byte " + i);
                in.discardReadBytes();
            }
            assertEquals(fixture.value(), builder.build());
            assertFalse(in.isReadable());
        } finally {
            in.release();
        }
    }

    @Test
    void decodesSeveralRepliesInOneBuffer() {
        List<Fixture> all = fixtures();
        ByteBuf in = Unpooled.buffer();
        try {
            for (Fixture f : all) {
                in.writeBytes(f.wire());
            }
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            List<RespValue> values = new ArrayList<>();
            while (reader.read(in, builder)) {
                values.add(builder.build());
            }
            assertEquals(all.stream().map(Fixture::value).toList(), values);
            assertFalse(in.isReadable());
        } finally {
            in.release();
        }
    }

    @Test
    void builderIsReusableAfterAHugeReply() {
        ByteBuf in = Unpooled.buffer();
        try {
            in.writeBytes(("*5000\r\n" + ":7\r\n".repeat(5000) + "*1\r\n:8\r\n").getBytes(StandardCharsets.US_ASCII));
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            assertTrue(reader.read(in, builder));
            RespArray big = (RespArray) builder.build();
            assertEquals(5000, big.elements().size());
            assertEquals(new RespInteger(7), big.elements().get(4999));
            assertTrue(reader.read(in, builder));
            assertEquals(RespArray.of(new RespInteger(8)), builder.build());
        } finally {
            in.release();
        }
    }

    @Test
    void partialElementStaysInInput() {
        ByteBuf in = Unpooled.copiedBuffer("*2\r\n:1\r\n$5\r\nhel", StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            assertFalse(reader.read(in, builder));
            assertEquals("hel", in.toString(StandardCharsets.US_ASCII));
            assertFalse(reader.atFrameStart());
            in.writeBytes("lo\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(reader.read(in, builder));
            assertEquals(RespArray.of(new RespInteger(1), RespBulkString.of("hello")), builder.build());
        } finally {
            in.release();
        }
    }

    @Test
    void rejectsUnknownTypeByteWithOffset() {
        ByteBuf in = Unpooled.copiedBuffer(":1\r\n*1\r\nA\r\n", StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            assertTrue(reader.read(in, builder));
            RespProtocolException e = assertThrows(RespProtocolException.class, () -> reader.read(in, builder));
            assertEquals(8, e.offset());
            assertTrue(e.getMessage().contains("unknown type byte 0x41 'A'"), e.getMessage());
            assertTrue(reader.atFrameStart());
        } finally {
            in.release();
        }
    }
}
