package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every malformation ends in a RespProtocolException naming the problem and the stream offset of the bad byte. */
@ExtendWith(LeakCheck.class)
class RespReaderErrorTest {

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("A\r\n", "unknown type byte 0x41 'A'", 0),
                Arguments.of("*1\r\n\u0000", "unknown type byte 0x00", 4),
                Arguments.of(":1\r\n:12a\r\n", "integer: non-digit 0x61 'a'", 7),
                Arguments.of(":\r\n", "integer: empty number", 1),
                Arguments.of(":-\r\n", "integer: sign without digits", 2),
                Arguments.of(":9223372036854775808\r\n", "integer: out of the 64-bit range", 19),
                Arguments.of(":-9223372036854775809\r\n", "integer: out of the 64-bit range", 20),
                Arguments.of("+OK\rX", "expected LF after CR", 4),
                Arguments.of("$3\r\nfoo\n\n", "bulk payload of 3 bytes not followed by CR", 7),
                Arguments.of("$3\r\nfooXY", "bulk payload of 3 bytes not followed by CR", 7),
                Arguments.of("$3\r\nfoo\rX", "bulk payload of 3 bytes not followed by LF", 8),
                Arguments.of("$-2\r\n", "bad length -2 for type '$' (expected: >= 0 or -1)", 1),
                Arguments.of("%-1\r\n", "bad length -1 for type '%' (expected: >= 0)", 1),
                Arguments.of("!-1\r\n", "bad length -1 for type '!' (expected: >= 0)", 1),
                Arguments.of("$x\r\n", "length: non-digit 0x78 'x'", 1),
                Arguments.of("*1x\r\n", "length: non-digit 0x78 'x'", 2),
                Arguments.of("$?\r\n", "streamed strings and aggregates are not supported ('$?')", 1),
                Arguments.of("*?\r\n", "streamed strings and aggregates are not supported ('*?')", 1),
                Arguments.of(";4\r\nabcd\r\n", "streamed strings and aggregates are not supported (type byte ';')", 0),
                Arguments.of(".\r\n", "streamed strings and aggregates are not supported (type byte '.')", 0),
                Arguments.of("_x\r\n", "null with content", 1),
                Arguments.of("#x\r\n", "boolean (expected: \"#t\" or \"#f\")", 1),
                Arguments.of("#\r\n", "boolean (expected: \"#t\" or \"#f\")", 1),
                Arguments.of(",\r\n", "double: empty number", 1),
                Arguments.of(",1.5x\r\n", "double: unexpected 0x78 'x'", 4),
                Arguments.of(",1e\r\n", "double: exponent without digits", 2),
                Arguments.of(",.\r\n", "double: no digits", 1),
                Arguments.of(",0x10\r\n", "double: unexpected 0x78 'x'", 2),
                Arguments.of(",Infinity\r\n", "double: no digits", 1),
                Arguments.of("(12a\r\n", "big number: non-digit 0x61 'a'", 3),
                Arguments.of("(\r\n", "big number: no digits", 1),
                Arguments.of("=3\r\ntxt\r\n", "verbatim string length 3 (expected: >= 4", 1),
                Arguments.of("=5\r\ntxt-a\r\n", "verbatim string without ':' after its 3-byte format", 7),
                Arguments.of("*2\r\n:1\r\n*1\r\n$1\r\nab\r\n", "bulk payload of 1 bytes not followed by CR", 17));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void rejects(String wire, String problem, long offset) {
        ByteBuf in = Unpooled.copiedBuffer(wire, StandardCharsets.ISO_8859_1);
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            RespProtocolException e = assertThrows(RespProtocolException.class, () -> {
                while (reader.read(in, builder)) {
                    builder.build();
                }
            });
            assertTrue(e.getMessage().contains(problem), e.getMessage());
            assertEquals(offset, e.offset(), e.getMessage());
            assertTrue(e.getMessage().endsWith("(at byte offset " + offset + ")"), e.getMessage());
            assertTrue(reader.atFrameStart());
        } finally {
            in.release();
        }
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void rejectsWhenFedOneByteAtATime(String wire, String problem, long offset) {
        byte[] bytes = wire.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuf in = Unpooled.buffer();
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            RespProtocolException e = assertThrows(RespProtocolException.class, () -> {
                for (byte b : bytes) {
                    in.writeByte(b);
                    while (in.isReadable() && reader.read(in, builder)) {
                        builder.build();
                    }
                    in.discardReadBytes();
                }
            });
            assertTrue(e.getMessage().contains(problem), e.getMessage());
            assertEquals(offset, e.offset(), e.getMessage());
        } finally {
            in.release();
        }
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void resetsAfterAnErrorSoTheNextStreamDecodes(String wire, String problem, long offset) {
        ByteBuf bad = Unpooled.copiedBuffer(wire, StandardCharsets.ISO_8859_1);
        ByteBuf good = Unpooled.copiedBuffer("*1\r\n:5\r\n", StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader();
            RespValueBuilder builder = new RespValueBuilder();
            assertThrows(RespProtocolException.class, () -> {
                while (reader.read(bad, builder)) {
                    builder.build();
                }
            });
            builder.reset();
            assertTrue(reader.read(good, builder));
            assertEquals(RespArray.of(new RespInteger(5)), builder.build());
            assertFalse(good.isReadable());
        } finally {
            bad.release();
            good.release();
        }
    }
}
