package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.resp.RespReader;
import io.hasp.resp.RespValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One plain blocking socket to the server on which a caller thread runs its own commands, one at a
 * time: it writes the command and reads the reply itself, with no event loop in between (see
 * {@link DirectConnections}, which lends these out). Replies are decoded by the same reader and
 * {@link ReplyDecoder} as on a multiplexed connection, into the same command futures.
 *
 * <p>Not thread-safe: one borrower at a time. Any I/O or protocol failure leaves the connection out of
 * step with the server; the borrower then {@linkplain #close() closes} it.
 */
final class DirectConnection implements AutoCloseable {

    private static final int READ_CHUNK = 512;
    private static final long IDLE = 0;
    private static final long EXPIRED = Long.MIN_VALUE;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String label;
    /** The {@link DirectConnections} generation this connection was opened in. */
    final long generation;
    private final RespReader reader = new RespReader();
    private final ReplyDecoder replies = new ReplyDecoder();
    private final ByteBuf outBuffer = Unpooled.buffer(256);
    private final ByteBuf inBuffer = Unpooled.buffer(READ_CHUNK);
    /** The current call's deadline; {@link #IDLE} between calls, {@link #EXPIRED} once the sweep closed it. */
    private final AtomicLong deadline = new AtomicLong(IDLE);
    private volatile long lastUsedNanos = System.nanoTime();

    private DirectConnection(Socket socket, String label, long generation) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.label = label;
        this.generation = generation;
    }

    /**
     * Connects within {@code timeoutMillis}; the handshake follows.
     *
     * @param address the server's address, already looked up
     * @param timeoutMillis the connect timeout
     * @param label a name for messages
     * @param generation the pool's generation
     * @return the connected socket's connection
     * @throws IOException when the connection cannot be opened
     */
    static DirectConnection connect(InetSocketAddress address, long timeoutMillis, String label, long generation)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(address, (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis)));
            // No SO_TIMEOUT: a timed read costs two more system calls per reply (a read that would block, a
            // poll); reads are bounded by the deadline DirectConnections' sweep enforces instead.
            return new DirectConnection(socket, label, generation);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Marks a call (or the handshake) as started: it must end by {@code deadlineNanos}, or the sweep
     * closes the socket under it.
     */
    void startCall(long deadlineNanos) {
        deadline.set(deadlineNanos == IDLE || deadlineNanos == EXPIRED ? 1 : deadlineNanos);
    }

    /**
     * Marks the call as ended: nothing to time out while the connection is idle.
     *
     * @return {@code false} when the sweep expired the call first (the socket is closed or about to be):
     *     the connection must not be used again
     */
    boolean endCall() {
        long current = deadline.get();
        lastUsedNanos = System.nanoTime();
        return current != EXPIRED && deadline.compareAndSet(current, IDLE);
    }

    /** @return the {@link System#nanoTime()} of the end of the last call */
    long lastUsedNanos() {
        return lastUsedNanos;
    }

    /**
     * Closes the connection if its call is past its deadline.
     *
     * @param now the current {@link System#nanoTime()}
     * @return {@code true} when it was closed
     */
    boolean expire(long now) {
        long current = deadline.get();
        if (current == IDLE || current == EXPIRED || now - current < 0 || !deadline.compareAndSet(current, EXPIRED)) {
            return false;   // idle, already expired, in time, or ended (or restarted) just now
        }
        close();
        return true;
    }

    /** @return whether a call (or the handshake) runs on this connection now; a snapshot */
    boolean inCall() {
        long current = deadline.get();
        return current != IDLE && current != EXPIRED;
    }

    /** @return whether {@link #expire} closed the connection under a call */
    boolean timedOut() {
        return deadline.get() == EXPIRED;
    }

    /**
     * Runs the handshake a multiplexed connection runs (HELLO or AUTH, SETNAME, SELECT, or a PING),
     * each reply checked the same way.
     *
     * @throws IOException when the connection is lost during the handshake
     * @throws io.hasp.RedisException when the server refuses it (credentials, protocol)
     */
    void handshake(HaspConfig config) throws IOException {
        List<Handshake.Step> steps = Handshake.steps(config, Endpoint.of(config));   // the one server: no cluster here
        outBuffer.clear();
        for (Handshake.Step step : steps) {
            outBuffer.ensureWritable(step.command.encodedSize());
            step.command.encode(outBuffer);
        }
        flushOut();
        for (Handshake.Step step : steps) {
            readReply(step.command, null);
            RespValue reply = null;
            Throwable failure = null;
            try {
                reply = step.command.getNow(null);
            } catch (CompletionException e) {
                failure = e.getCause();
            }
            Throwable problem = step.check(this, reply, failure);
            if (problem instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (problem != null) {
                throw new RedisConnectionException(this + ": handshake " + step.label + " failed", problem);
            }
        }
        checkNothingLeft(steps.get(steps.size() - 1).command);
    }

    /**
     * Writes {@code command} and reads its reply, which completes it, unless the reply was an error the
     * command recovers from on {@code fallback} (a script missing from the server's cache: loaded and
     * sent again there), in which case it completes later, from there.
     *
     * @param command the command, not yet written anywhere
     * @param fallback the multiplexed connection for a command's recovery
     * @throws IOException when the link failed (the command is then left incomplete)
     * @throws io.hasp.resp.RespProtocolException when the reply is malformed (left incomplete too)
     */
    void call(Command<?> command, RedisConnection fallback) throws IOException {
        outBuffer.clear();
        outBuffer.ensureWritable(command.encodedSize());
        command.encode(outBuffer);
        flushOut();
        readReply(command, fallback);
        checkNothingLeft(command);
    }

    /** One command at a time: any byte past its reply means the stream is out of step. */
    private void checkNothingLeft(Command<?> command) throws IOException {
        if (inBuffer.isReadable()) {
            throw new IOException(this + ": " + inBuffer.readableBytes() + " byte(s) past the reply of "
                    + command.name());
        }
        inBuffer.clear();
    }

    private void flushOut() throws IOException {
        out.write(outBuffer.array(), outBuffer.arrayOffset() + outBuffer.readerIndex(), outBuffer.readableBytes());
        out.flush();
    }

    /**
     * Reads one reply frame and decodes it into {@code command}; push frames before it are skipped. Bytes
     * past the frame stay in the buffer (the handshake's pipelined replies).
     */
    private void readReply(Command<?> command, RedisConnection fallback) throws IOException {
        FrameSink sink = null;
        for (;;) {
            if (sink == null && inBuffer.isReadable()) {
                sink = inBuffer.getByte(inBuffer.readerIndex()) == '>' ? DiscardingSink.INSTANCE : replies.start(command);
            }
            if (sink != null && reader.read(inBuffer, sink)) {
                sink.frameEnd(fallback);
                if (sink == DiscardingSink.INSTANCE) {
                    sink = null;
                    continue;
                }
                return;
            }
            if (inBuffer.writableBytes() < READ_CHUNK) {
                inBuffer.discardReadBytes();
                inBuffer.ensureWritable(READ_CHUNK);
            }
            int n = in.read(inBuffer.array(), inBuffer.arrayOffset() + inBuffer.writerIndex(), inBuffer.writableBytes());
            if (n < 0) {
                throw new EOFException(this + ": the server closed the connection");
            }
            inBuffer.writerIndex(inBuffer.writerIndex() + n);
        }
    }

    /** Closes the socket; a borrower blocked on it fails with an {@code IOException}. Idempotent. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public String toString() {
        return "hasp[" + label + "]";
    }
}
