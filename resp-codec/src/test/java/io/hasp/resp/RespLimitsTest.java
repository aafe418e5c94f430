package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LeakCheck.class)
class RespLimitsTest {

    private static RespProtocolException fail(RespLimits limits, String wire) {
        ByteBuf in = Unpooled.copiedBuffer(wire, StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader(limits);
            return assertThrows(RespProtocolException.class, () -> reader.read(in, new RespValueBuilder()));
        } finally {
            in.release();
        }
    }

    @Test
    void hasSafeDefaults() {
        RespLimits d = RespLimits.DEFAULT;
        assertEquals(512 * 1024 * 1024, d.maxBulkLength());
        assertEquals(Integer.MAX_VALUE, d.maxAggregateLength());
        assertEquals(64, d.maxDepth());
        assertEquals(64 * 1024, d.maxLineLength());
    }

    @Test
    void rejectsBulkLongerThanTheLimitBeforeItsBytesArrive() {
        RespProtocolException e = fail(RespLimits.DEFAULT, "$536870913\r\n");
        assertTrue(e.getMessage().contains("bulk length 536870913 exceeds maxBulkLength 536870912"), e.getMessage());
        assertEquals(1, e.offset());
        e = fail(RespLimits.builder().maxBulkLength(10).build(), "!11\r\n");
        assertTrue(e.getMessage().contains("exceeds maxBulkLength 10"), e.getMessage());
    }

    @Test
    void hugeDeclaredBulkWaitsWithoutAllocating() {
        ByteBuf in = Unpooled.copiedBuffer("$536870912\r\nabc", StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader();
            assertFalse(reader.read(in, new RespValueBuilder()));
            assertEquals(3, in.readableBytes());
            assertFalse(reader.atFrameStart());
            assertTrue(in.capacity() < 64);
        } finally {
            in.release();
        }
    }

    @Test
    void rejectsLongAggregatesAndDeepNesting() {
        RespLimits limits = RespLimits.builder().maxAggregateLength(3).maxDepth(2).build();
        RespProtocolException e = fail(limits, "*4\r\n");
        assertTrue(e.getMessage().contains("aggregate length 4 exceeds maxAggregateLength 3"), e.getMessage());
        e = fail(limits, "%4\r\n");
        assertTrue(e.getMessage().contains("aggregate length 4"), e.getMessage());
        e = fail(limits, "*1\r\n*1\r\n*1\r\n:1\r\n");
        assertTrue(e.getMessage().contains("aggregates nested deeper than maxDepth 2"), e.getMessage());
        assertEquals(8, e.offset());
        e = fail(RespLimits.DEFAULT, "*1\r\n".repeat(65) + ":1\r\n");
        assertEquals(256, e.offset());
        e = fail(RespLimits.DEFAULT, "*3000000000\r\n");
        assertTrue(e.getMessage().contains("aggregate length 3000000000 exceeds"), e.getMessage());
    }

    @Test
    void acceptsNestingUpToTheLimit() {
        ByteBuf in = Unpooled.copiedBuffer("*1\r\n".repeat(64) + ":1\r\n", StandardCharsets.US_ASCII);
        try {
            RespValueBuilder builder = new RespValueBuilder();
            assertTrue(new RespReader().read(in, builder));
            RespValue value = builder.build();
            for (int i = 0; i < 64; i++) {
                value = ((RespArray) value).elements().get(0);
            }
            assertEquals(new RespInteger(1), value);
        } finally {
            in.release();
        }
    }

    @Test
    void rejectsLineLongerThanTheLimitWithoutWaitingForCrlf() {
        RespLimits limits = RespLimits.builder().maxLineLength(32).build();
        RespProtocolException e = fail(limits, "+" + "a".repeat(33));
        assertTrue(e.getMessage().contains("line longer than maxLineLength 32 bytes without CRLF"), e.getMessage());
        assertEquals(33, e.offset());
        ByteBuf in = Unpooled.copiedBuffer("+" + "a".repeat(32), StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader(limits);
            RespValueBuilder builder = new RespValueBuilder();
            assertFalse(reader.read(in, builder));
            in.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(reader.read(in, builder));
            assertEquals(new RespSimpleString("a".repeat(32)), builder.build());
        } finally {
            in.release();
        }
    }

    @Test
    void validatesBuilderArguments() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RespLimits.builder().maxDepth(0));
        assertEquals("maxDepth: 0 (expected: >= 1 and <= 4096)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RespLimits.builder().maxBulkLength(-1));
        assertThrows(IllegalArgumentException.class, () -> RespLimits.builder().maxAggregateLength(-1));
        assertThrows(IllegalArgumentException.class, () -> RespLimits.builder().maxLineLength(31));
    }
}
