package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.resp.CommandName;
import io.hasp.resp.RespReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A command's whole client-side life (create and check it, size and encode it, decode its reply,
 * complete it) allocates the command object and the reply's value, nothing else: measured with
 * the JVM's per-thread allocation counter over many commands (a byte count, not a timing). The
 * bounds are object sizes with compressed oops (12-byte headers, 4-byte references, 8-byte
 * alignment), so the test is skipped on a JVM without them.
 */
class CommandAllocationTest {

    private static final int ROUNDS = 50_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /**
     * An EVALSHA command: header 12, CompletableFuture's result and stack 8, reply 4, deadline
     * 8, the {@code whenDone} action 4, script, keys and args 12, retried 1 = 49, aligned to 56.
     * Before the decoding state moved to the connection it was 72; an argument array or boxed copy
     * per command would add 16+. (The {@code whenDone} slot saves the 64 bytes of a dependent
     * stage wherever the lock layer waits for a reply.)
     */
    private static final long EVALSHA_BYTES = 56;

    /** A GET command (48: its two string fields take the place of EVALSHA's three fields) and its String value (24 + 24 for 5 bytes). */
    private static final long GET_BYTES = 48 + 24 + 24;

    private static final Script SCRIPT = Script.of("acquire", "return redis.call('pexpire', KEYS[1], ARGV[1])");
    private static final CommandName GET = CommandName.of("GET");
    private static final List<String> KEYS = List.of("lock:{orders:42}");
    private static final Object[] ARGS = {30_000L, "5f0c0a5e-8f3c-4d43-a1f1-0b0a2d35a9e1:1", 1L};

    private final RespReader reader = new RespReader();
    private final ReplyDecoder decoder = new ReplyDecoder();
    private final ByteBuf out = Unpooled.buffer(512);
    private final ByteBuf nil = Unpooled.wrappedBuffer("$-1\r\n".getBytes(StandardCharsets.US_ASCII));
    private final ByteBuf value = Unpooled.wrappedBuffer("$5\r\nvalue\r\n".getBytes(StandardCharsets.US_ASCII));

    @BeforeAll
    static void compressedOops() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        assumeTrue(Boolean.parseBoolean(vm.getVMOption("UseCompressedOops").getValue()),
                "the byte bounds assume compressed oops");
    }

    @AfterEach
    void release() {
        out.release();
        nil.release();
        value.release();
    }

    @Test
    void evalshaWithLongArgumentsAllocatesOnlyTheCommand() {
        long perCommand = bytesPerCommand(() -> new EvalShaCommand<>(SCRIPT, Replies.NULL_OR_LONG, KEYS, ARGS), nil);
        assertTrue(perCommand <= EVALSHA_BYTES, perCommand + " bytes per EVALSHA (expected: <= " + EVALSHA_BYTES + ")");
    }

    @Test
    void getAllocatesOnlyTheCommandAndItsValue() {
        long perCommand = bytesPerCommand(() -> new StringArgsCommand<>(Replies.STRING, GET, "orders:42"), value);
        assertTrue(perCommand <= GET_BYTES, perCommand + " bytes per GET (expected: <= " + GET_BYTES + ")");
    }

    @Test
    void theRoundTripDecodesTheReply() {
        Command<Long> evalsha = roundTrip(new EvalShaCommand<>(SCRIPT, Replies.NULL_OR_LONG, KEYS, ARGS), nil);
        assertTrue(evalsha.isDone());
        assertNull(evalsha.join());
        Command<String> get = roundTrip(new StringArgsCommand<>(Replies.STRING, GET, "orders:42"), value);
        assertEquals("value", get.join());
        assertEquals("*2\r\n$3\r\nGET\r\n$9\r\norders:42\r\n", out.toString(StandardCharsets.US_ASCII));
    }

    private long bytesPerCommand(Supplier<Command<?>> command, ByteBuf reply) {
        for (int i = 0; i < ROUNDS; i++) {
            roundTrip(command.get(), reply);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < ROUNDS; i++) {
            roundTrip(command.get(), reply);
        }
        return (THREADS.getCurrentThreadAllocatedBytes() - before) / ROUNDS;
    }

    /** What the connection does with one command: encode it, then decode its reply into it. */
    private <T> Command<T> roundTrip(Command<T> command, ByteBuf reply) {
        out.clear();
        out.ensureWritable(command.encodedSize());
        command.encode(out);
        reply.readerIndex(0);
        FrameSink sink = decoder.start(command);
        if (!reader.read(reply, sink)) {
            throw new AssertionError("the reply fixture is incomplete");
        }
        sink.frameEnd(null);
        return command;
    }
}
