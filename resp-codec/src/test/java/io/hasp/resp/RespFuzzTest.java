package io.hasp.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Timeout;

/**
 * Randomised tests with fixed seeds: valid frames of random shape decode to the encoded value;
 * mutated, truncated and garbage input ends in a RespProtocolException or a wait for more bytes,
 * never another exception, a hang, an OOM or a leak. Iteration counts bound the run time;
 * the timeouts only catch hangs.
 */
@ExtendWith(LeakCheck.class)
class RespFuzzTest {

    private static final long SEED = 0x5EED_4A5BL;

    @Test
    @Timeout(120)
    void randomValidRepliesRoundTripWithRandomSplits() {
        SplittableRandom random = new SplittableRandom(SEED);
        RespGen gen = new RespGen(random, true);
        RespWire wire = new RespWire(random, true);
        for (int round = 0; round < 400; round++) {
            List<RespValue> values = new ArrayList<>();
            ByteBuf joined = ByteBufAllocator.DEFAULT.buffer();
            int count = random.nextInt(1, 6);
            for (int i = 0; i < count; i++) {
                RespValue value = gen.value(random.nextInt(0, 5));
                values.add(value);
                joined.writeBytes(wire.encode(value));
            }
            byte[] bytes = new byte[joined.readableBytes()];
            joined.readBytes(bytes).release();
            EmbeddedChannel channel = new EmbeddedChannel(new RespValueDecoder());
            for (int from = 0; from < bytes.length;) {
                int to = Math.min(bytes.length, from + 1 + random.nextInt(random.nextBoolean() ? 4 : 200));
                channel.writeInbound(ByteBufAllocator.DEFAULT.buffer(to - from).writeBytes(bytes, from, to - from));
                from = to;
            }
            for (RespValue expected : values) {
                assertEquals(expected, channel.readInbound(), "round " + round);
            }
            assertFalse(channel.finish());
        }
    }

    @Test
    @Timeout(120)
    void mutatedAndTruncatedRepliesFailCleanly() {
        SplittableRandom random = new SplittableRandom(SEED + 1);
        RespGen gen = new RespGen(random, true);
        RespWire wire = new RespWire(random, true);
        RespLimits limits = RespLimits.builder().maxDepth(4).maxAggregateLength(1000).maxBulkLength(100_000)
                .maxLineLength(1024).build();
        int[] outcomes = new int[3];
        for (int round = 0; round < 5000; round++) {
            byte[] bytes = mutate(random, wire.encode(gen.value(random.nextInt(0, 5))));
            outcomes[decode(bytes, limits, random)]++;
        }
        assertTrue(outcomes[0] > 0 && outcomes[1] > 0 && outcomes[2] > 0, Arrays.toString(outcomes));
    }

    @Test
    @Timeout(120)
    void garbageFailsCleanly() {
        SplittableRandom random = new SplittableRandom(SEED + 2);
        byte[] alphabet = "+-:$*_#,(!=%~|>;.?0123456789\r\n\r\nabc ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int round = 0; round < 5000; round++) {
            byte[] bytes = new byte[random.nextInt(1, 64)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            decode(bytes, RespLimits.DEFAULT, random);
        }
    }

    /** Decodes; returns 0 for a protocol error, 1 when bytes are missing at the end, 2 when all decoded. */
    private static int decode(byte[] bytes, RespLimits limits, SplittableRandom random) {
        ByteBuf in = ByteBufAllocator.DEFAULT.buffer(bytes.length);
        RespReader reader = new RespReader(limits);
        RespValueBuilder builder = new RespValueBuilder();
        try {
            int from = 0;
            int calls = 0;
            while (from < bytes.length) {
                int to = Math.min(bytes.length, from + 1 + random.nextInt(16));
                in.writeBytes(bytes, from, to - from);
                from = to;
                while (in.isReadable() && reader.read(in, builder)) {
                    builder.build();
                    if (++calls > bytes.length + 1) {
                        fail("more replies than bytes: " + Arrays.toString(bytes));
                    }
                }
                in.discardReadBytes();
            }
            return reader.atFrameStart() && !in.isReadable() ? 2 : 1;
        } catch (RespProtocolException expected) {
            assertTrue(expected.offset() >= 0 && expected.offset() <= bytes.length, expected.getMessage());
            return 0;
        } finally {
            in.release();
        }
    }

    private static byte[] mutate(SplittableRandom random, byte[] bytes) {
        byte[] b = bytes;
        int mutations = random.nextInt(1, 4);
        for (int m = 0; m < mutations && b.length > 0; m++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(5)) {
                case 0:
                    b[at] = (byte) random.nextInt(256);
                    break;
                case 1:
                    b = Arrays.copyOf(b, at);
                    break;
                case 2: {
                    byte[] c = new byte[b.length + 1];
                    System.arraycopy(b, 0, c, 0, at);
                    c[at] = (byte) "\r\n-1:$*9?".charAt(random.nextInt(9));
                    System.arraycopy(b, at, c, at + 1, b.length - at);
                    b = c;
                    break;
                }
                case 3: {
                    byte[] c = new byte[b.length - 1];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(b, at + 1, c, at, b.length - at - 1);
                    b = c;
                    break;
                }
                default:
                    b[at] = (byte) (b[at] ^ (1 << random.nextInt(8)));
            }
        }
        return b;
    }
}
