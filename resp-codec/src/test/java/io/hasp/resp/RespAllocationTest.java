package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sink path decodes scalar replies and the writer encodes commands without allocating:
 * measured with the JVM's per-thread allocation counter over many operations (a byte count,
 * not a timing).
 */
@ExtendWith(LeakCheck.class)
class RespAllocationTest {

    private static final int ROUNDS = 50_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocated() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    @ParameterizedTest
    @ValueSource(strings = {":29998\r\n", "$-1\r\n", "*-1\r\n", "_\r\n", "+OK\r\n", "-NOSCRIPT No matching script\r\n",
            "$5\r\nvalue\r\n", "*2\r\n:1\r\n$3\r\nabc\r\n", "#t\r\n", ",1.5\r\n"})
    void sinkPathDecodesWithoutAllocating(String reply) {
        ByteBuf in = Unpooled.wrappedBuffer(reply.getBytes(StandardCharsets.US_ASCII));
        RespReader reader = new RespReader();
        CountingSink sink = new CountingSink();
        for (int i = 0; i < ROUNDS; i++) {
            in.readerIndex(0);
            reader.read(in, sink);
        }
        long before = allocated();
        for (int i = 0; i < ROUNDS; i++) {
            in.readerIndex(0);
            reader.read(in, sink);
        }
        long perReply = (allocated() - before) / ROUNDS;
        assertTrue(perReply == 0, reply.trim() + ": " + perReply + " bytes per reply");
        assertTrue(sink.events >= 2L * ROUNDS);
    }

    @Test
    void writerEncodesEvalshaWithoutAllocating() {
        CommandName evalsha = CommandName.of("EVALSHA");
        String sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db";
        String key = "lock:orders:42";
        String owner = "5f0c0a5e-8f3c-4d43-a1f1-0b0a2d35a9e1:1";
        ByteBuf out = Unpooled.buffer(256);
        for (int i = 0; i < ROUNDS; i++) {
            encode(out, evalsha, sha, key, owner);
        }
        long before = allocated();
        for (int i = 0; i < ROUNDS; i++) {
            encode(out, evalsha, sha, key, owner);
        }
        long perCommand = (allocated() - before) / ROUNDS;
        assertTrue(perCommand == 0, perCommand + " bytes per command");
    }

    private static void encode(ByteBuf out, CommandName evalsha, String sha, String key, String owner) {
        out.clear();
        int size = evalsha.headerSize(5) + RespWriter.bulkSize(sha) + RespWriter.bulkSize(1L) + RespWriter.bulkSize(key)
                + RespWriter.bulkSize(30_000L) + RespWriter.bulkSize(owner);
        out.ensureWritable(size);
        evalsha.writeHeader(out, 5);
        RespWriter.writeBulk(out, sha);
        RespWriter.writeBulk(out, 1L);
        RespWriter.writeBulk(out, key);
        RespWriter.writeBulk(out, 30_000L);
        RespWriter.writeBulk(out, owner);
    }

    /** Counts events and touches payload bytes, allocating nothing. */
    private static final class CountingSink implements RespSink {
        long events;

        private void touch(ByteBuf content) {
            events += content.readableBytes() > 0 ? content.getByte(content.readerIndex()) & 1 : 0;
            events++;
        }

        @Override
        public void simpleString(ByteBuf content) {
            touch(content);
        }

        @Override
        public void error(ByteBuf message) {
            touch(message);
        }

        @Override
        public void integer(long value) {
            events += value & 1;
            events++;
        }

        @Override
        public void bulkString(ByteBuf content) {
            touch(content);
        }

        @Override
        public void verbatimString(ByteBuf format, ByteBuf content) {
            touch(content);
        }

        @Override
        public void nullValue() {
            events++;
        }

        @Override
        public void booleanValue(boolean value) {
            events++;
        }

        @Override
        public void doubleValue(double value) {
            events++;
        }

        @Override
        public void bigNumber(ByteBuf digits) {
            touch(digits);
        }

        @Override
        public void aggregateStart(RespType type, int size) {
            events++;
        }

        @Override
        public void aggregateEnd(RespType type) {
            events++;
        }
    }
}
