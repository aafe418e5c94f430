package io.hasp.internal.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.RedisException;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import io.hasp.resp.RespReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The connection's reply decoder, one reused instance for reply after reply (as on a connection):
 * each frame completes the command it was started for, and no state leaks into the next frame.
 * Replies from a real server are covered by {@code CommandsTest}; these are the frames a test
 * server rarely sends.
 */
class ReplyDecoderTest {

    private static final CommandName GET = CommandName.of("GET");

    private final RespReader reader = new RespReader();
    private final ReplyDecoder decoder = new ReplyDecoder();

    private <T> Command<T> decode(Command<T> command, String frame) {
        ByteBuf in = Unpooled.wrappedBuffer(frame.getBytes(StandardCharsets.UTF_8));
        try {
            FrameSink sink = decoder.start(command);
            assertTrue(reader.read(in, sink), frame);
            sink.frameEnd(null);
            assertEquals(0, in.readableBytes(), frame);
            return command;
        } finally {
            in.release();
        }
    }

    private static StringArgsCommand<String> get() {
        return new StringArgsCommand<>(Replies.STRING, GET, "k");
    }

    @Test
    void aTopLevelAttributeIsSkippedAndTheReplyAfterItIsTheValue() {
        assertEquals("v", decode(get(), "|1\r\n+ttl\r\n:3\r\n$1\r\nv\r\n").join());
        assertEquals(List.of("a", "b"), decode(new StringArgsCommand<>(Replies.STRING_LIST, GET, "k"),
                "|1\r\n+a\r\n*1\r\n:1\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n").join());
    }

    @Test
    void anErrorFailsOnlyItsCommand() {
        CompletionException e = assertThrows(CompletionException.class,
                () -> decode(get(), "-WRONGTYPE Operation against a key\r\n").join());
        assertEquals("WRONGTYPE", assertInstanceOf(RedisServerException.class, e.getCause()).code());
        assertEquals("next", decode(get(), "$4\r\nnext\r\n").join());
    }

    @Test
    void aReplyThatCannotBeDecodedFailsWithTheCommandsName() {
        CompletionException e = assertThrows(CompletionException.class,
                () -> decode(new StringArgsCommand<>(Replies.LONG, GET, "k"), "*2\r\n:1\r\n:2\r\n").join());
        RedisException failure = assertInstanceOf(RedisException.class, e.getCause());
        assertTrue(failure.getMessage().startsWith("GET: cannot decode the reply"), failure.getMessage());
        assertEquals(7L, decode(new StringArgsCommand<>(Replies.LONG, GET, "k"), ":7\r\n").join());
    }

    @Test
    void theLateReplyOfACancelledCommandIsConsumedAndDropped() {
        StringArgsCommand<String> cancelled = get();
        cancelled.cancel(/* mayInterruptIfRunning= */ false);
        assertSame(cancelled, decode(cancelled, "*2\r\n$1\r\na\r\n-ERR inside\r\n"));
        assertThrows(CancellationException.class, cancelled::join);
        assertEquals("after", decode(get(), "+after\r\n").join());
    }
}
