package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LeakCheck.class)
class RespWriterTest {

    private static final CommandName EVALSHA = CommandName.of("EVALSHA");

    @Test
    void writesEvalshaWithExactSize() {
        String sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db";
        int size = EVALSHA.headerSize(5) + RespWriter.bulkSize(sha) + RespWriter.bulkSize(1L)
                + RespWriter.bulkSize("lock") + RespWriter.bulkSize(30000L) + RespWriter.bulkSize("é:1".getBytes(StandardCharsets.UTF_8));
        ByteBuf out = Unpooled.buffer(size);
        try {
            EVALSHA.writeHeader(out, 5);
            RespWriter.writeBulk(out, sha);
            RespWriter.writeBulk(out, 1L);
            RespWriter.writeBulk(out, "lock");
            RespWriter.writeBulk(out, 30000L);
            RespWriter.writeBulk(out, "é:1".getBytes(StandardCharsets.UTF_8));
            assertEquals(size, out.readableBytes());
            assertEquals(size, out.capacity());
            assertEquals("*6\r\n$7\r\nEVALSHA\r\n$40\r\n" + sha + "\r\n$1\r\n1\r\n$4\r\nlock\r\n$5\r\n30000\r\n$4\r\né:1\r\n",
                    out.toString(StandardCharsets.UTF_8));
        } finally {
            out.release();
        }
    }

    @Test
    void writesNumbersAsAscii() {
        long[] values = {0, 1, -1, 9, 10, 99, 100, 127, 128, 123456789, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE};
        ByteBuf out = Unpooled.buffer();
        try {
            for (long v : values) {
                out.clear();
                RespWriter.writeBulk(out, v);
                String digits = Long.toString(v);
                assertEquals("$" + digits.length() + "\r\n" + digits + "\r\n", out.toString(StandardCharsets.US_ASCII));
                assertEquals(out.readableBytes(), RespWriter.bulkSize(v));
                assertEquals(digits.length(), RespWriter.asciiLength(v));
            }
            for (int count : new int[] {0, 1, 127, 128, 1000, Integer.MAX_VALUE}) {
                out.clear();
                RespWriter.writeArrayHeader(out, count);
                assertEquals("*" + count + "\r\n", out.toString(StandardCharsets.US_ASCII));
                assertEquals(out.readableBytes(), RespWriter.arrayHeaderSize(count));
            }
        } finally {
            out.release();
        }
    }

    @Test
    void writesByteBufWithoutConsumingIt() {
        ByteBuf value = Unpooled.copiedBuffer("xyz", StandardCharsets.US_ASCII);
        ByteBuf out = Unpooled.buffer();
        try {
            value.readByte();
            RespWriter.writeBulk(out, value);
            assertEquals("$2\r\nyz\r\n", out.toString(StandardCharsets.US_ASCII));
            assertEquals(1, value.readerIndex());
            assertEquals(1, value.refCnt());
            assertEquals(out.readableBytes(), RespWriter.bulkSize(value));
        } finally {
            out.release();
            value.release();
        }
    }

    @Test
    void writesSeveralCommandsIntoOneBuffer() {
        CommandName get = CommandName.of("GET");
        ByteBuf out = Unpooled.buffer();
        try {
            for (int i = 0; i < 3; i++) {
                get.writeHeader(out, 1);
                RespWriter.writeBulk(out, "k" + i);
            }
            assertEquals("*2\r\n$3\r\nGET\r\n$2\r\nk0\r\n*2\r\n$3\r\nGET\r\n$2\r\nk1\r\n*2\r\n$3\r\nGET\r\n$2\r\nk2\r\n",
                    out.toString(StandardCharsets.US_ASCII));
        } finally {
            out.release();
        }
    }

    @Test
    void encodedCommandsDecodeAsArraysOfBulkStrings() {
        CommandName set = CommandName.of("SET");
        ByteBuf out = Unpooled.buffer();
        try {
            set.writeHeader(out, 4);
            RespWriter.writeBulk(out, "k€y");
            RespWriter.writeBulk(out, new byte[] {0, '\r', '\n', (byte) 0xff});
            RespWriter.writeBulk(out, -1234567890123L);
            ByteBuf arg = Unpooled.copiedBuffer("px", StandardCharsets.US_ASCII);
            RespWriter.writeBulk(out, arg);
            arg.release();
            RespValueBuilder builder = new RespValueBuilder();
            assertEquals(true, new RespReader().read(out, builder));
            assertEquals(RespArray.of(RespBulkString.of("SET"), RespBulkString.of("k€y"),
                    RespBulkString.of(new byte[] {0, '\r', '\n', (byte) 0xff}), RespBulkString.of("-1234567890123"),
                    RespBulkString.of("px")), builder.build());
        } finally {
            out.release();
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> CommandName.of(""));
        assertThrows(IllegalArgumentException.class, () -> EVALSHA.headerSize(-1));
        assertThrows(IllegalArgumentException.class, () -> RespWriter.arrayHeaderSize(-2));
        assertEquals("EVALSHA", EVALSHA.name());
    }
}
