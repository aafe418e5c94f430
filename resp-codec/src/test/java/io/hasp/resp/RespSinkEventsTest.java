package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The event sequence a {@link RespSink} sees, as the client relies on it. */
@ExtendWith(LeakCheck.class)
class RespSinkEventsTest {

    private static List<String> events(String wire) {
        ByteBuf in = Unpooled.copiedBuffer(wire, StandardCharsets.UTF_8);
        try {
            Recorder recorder = new Recorder();
            assertTrue(new RespReader().read(in, recorder));
            assertFalse(in.isReadable());
            return recorder.events;
        } finally {
            in.release();
        }
    }

    @Test
    void mapSizeCountsPairsAndAttributeComesBeforeItsValue() {
        assertEquals(List.of("start MAP 2", "bulk a", "int 1", "bulk b", "null", "end MAP"),
                events("%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n_\r\n"));
        assertEquals(List.of("start ATTRIBUTE 1", "simple k", "simple v", "end ATTRIBUTE", "start PUSH 2", "bulk message",
                "verbatim txt hi", "end PUSH"), events("|1\r\n+k\r\n+v\r\n>2\r\n$7\r\nmessage\r\n=6\r\ntxt:hi\r\n"));
        assertEquals(List.of("start ARRAY 0", "end ARRAY"), events("*0\r\n"));
        assertEquals(List.of("null"), events("*-1\r\n"));
        assertEquals(List.of("error ERR x"), events("!5\r\nERR x\r\n"));
        assertEquals(List.of("big -12"), events("(-12\r\n"));
        assertEquals(List.of("double -0.5"), events(",-0.5\r\n"));
        assertEquals(List.of("bool true"), events("#t\r\n"));
    }

    @Test
    void sinkViewIsRestoredAfterTheCall() {
        ByteBuf in = Unpooled.copiedBuffer("$3\r\nabc\r\n+OK\r\n", StandardCharsets.US_ASCII);
        try {
            RespReader reader = new RespReader();
            RespSink greedy = new Recorder() {
                @Override
                public void bulkString(ByteBuf content) {
                    content.skipBytes(content.readableBytes());
                    super.bulkString(content);
                }
            };
            assertTrue(reader.read(in, greedy));
            assertEquals(9, in.readerIndex());
            assertEquals(14, in.writerIndex());
            Recorder next = new Recorder();
            assertTrue(reader.read(in, next));
            assertEquals(List.of("simple OK"), next.events);
        } finally {
            in.release();
        }
    }

    private static class Recorder implements RespSink {
        final List<String> events = new ArrayList<>();

        @Override
        public void simpleString(ByteBuf content) {
            events.add("simple " + content.toString(StandardCharsets.UTF_8));
        }

        @Override
        public void error(ByteBuf message) {
            events.add("error " + message.toString(StandardCharsets.UTF_8));
        }

        @Override
        public void integer(long value) {
            events.add("int " + value);
        }

        @Override
        public void bulkString(ByteBuf content) {
            events.add("bulk " + content.toString(StandardCharsets.UTF_8));
        }

        @Override
        public void verbatimString(ByteBuf format, ByteBuf content) {
            events.add("verbatim " + format.toString(StandardCharsets.US_ASCII) + " " + content.toString(StandardCharsets.UTF_8));
        }

        @Override
        public void nullValue() {
            events.add("null");
        }

        @Override
        public void booleanValue(boolean value) {
            events.add("bool " + value);
        }

        @Override
        public void doubleValue(double value) {
            events.add("double " + value);
        }

        @Override
        public void bigNumber(ByteBuf digits) {
            events.add("big " + digits.toString(StandardCharsets.US_ASCII));
        }

        @Override
        public void aggregateStart(RespType type, int size) {
            events.add("start " + type + " " + size);
        }

        @Override
        public void aggregateEnd(RespType type) {
            events.add("end " + type);
        }
    }
}
