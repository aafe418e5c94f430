package io.hasp.resp;

import io.netty.buffer.ByteBuf;

/**
 * An incremental RESP2/RESP3 reply decoder: a resumable state machine that turns bytes into
 * {@link RespSink} events. One reader per connection; not thread-safe.
 *
 * <p>{@link #read} consumes whole elements only: a line, a bulk payload or an aggregate header
 * is consumed once it is complete; the bytes of a partial element stay in the input, so the
 * caller appends more bytes and calls again. Nesting is tracked with an explicit stack, never
 * recursion. Nothing is allocated for integers, nulls, simple strings, errors and bulk strings:
 * their content is passed as a window onto the input buffer itself. A declared bulk length is
 * only remembered; the payload is sliced when all of it has arrived.
 *
 * <p>Streamed strings and aggregates ({@code $?}, {@code *?}, {@code ;}, {@code .}) are rejected.
 * Every malformation throws a {@link RespProtocolException} whose offset counts bytes from the
 * start of the stream, i.e. from the first byte consumed after construction or the last
 * {@link #reset()}; the reader then resets itself (including that count) and leaves the
 * offending bytes in the input. The stream is out of sync after an error: close the connection.
 */
public final class RespReader {

    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private enum State {
        /** Expecting a type byte and its line. */
        LINE,
        /** A bulk header was consumed; expecting {@link #bulkLength} bytes and CRLF. */
        BULK_BODY
    }

    /** Results of one decoding step. */
    private static final int NEED_MORE = 0;
    private static final int ELEMENT_DONE = 1;
    private static final int REPLY_DONE = 2;

    private final RespLimits limits;
    private final RespNumbers numbers = new RespNumbers();
    private final RespAggregateStack stack;

    private State state = State.LINE;
    /** Bytes consumed since construction or the last reset: the stream offset of the reader index. */
    private long consumed;
    /** Bytes of the current line already searched for CR, so that a growing line is scanned once. */
    private int scanned;
    private boolean midReply;

    /** The pending bulk payload, valid in {@link State#BULK_BODY}: its type marker and length. */
    private byte bulkMarker;
    private int bulkLength;

    /** Creates a reader with {@link RespLimits#DEFAULT}. */
    public RespReader() {
        this(RespLimits.DEFAULT);
    }

    /**
     * Creates a reader with the given limits.
     *
     * @param limits the bounds to enforce
     */
    public RespReader(RespLimits limits) {
        if (limits == null) {
            throw new NullPointerException("limits");
        }
        this.limits = limits;
        this.stack = new RespAggregateStack(limits.maxDepth());
    }

    /**
     * Decodes from {@code in}, delivering events to {@code sink}, until one complete top-level
     * reply has been delivered or more bytes are needed.
     *
     * <p>A RESP3 attribute is delivered as an {@link RespType#ATTRIBUTE} aggregate and reading
     * continues with the reply it annotates; true is returned after that reply.
     *
     * <p>Between calls the caller may append bytes to {@code in} (or pass a buffer that starts
     * with the same unread bytes, as Netty's cumulation does) but must not consume unread bytes
     * itself; if it does, it must call {@link #reset()} first.
     *
     * @param in the received bytes; complete elements are consumed, a partial element stays
     * @param sink the receiver of this reply's events
     * @return true when a reply is complete (the reader is at a frame start again), false when
     *     more bytes are needed
     * @throws RespProtocolException when the input is malformed or exceeds a limit; the reader resets
     */
    public boolean read(ByteBuf in, RespSink sink) {
        try {
            for (;;) {
                int result;
                switch (state) {
                    case LINE:
                        result = readLine(in, sink);
                        break;
                    case BULK_BODY:
                        result = readBulkBody(in, sink);
                        break;
                    default:
                        throw new IllegalStateException("state: " + state);
                }
                if (result == NEED_MORE) {
                    return false;
                }
                if (result == REPLY_DONE) {
                    midReply = false;
                    return true;
                }
            }
        } catch (Throwable t) {
            reset();
            throw t;
        }
    }

    /**
     * Returns whether no reply is partially decoded, i.e. the next byte read starts a reply.
     *
     * @return true at a frame boundary
     */
    public boolean atFrameStart() {
        return !midReply;
    }

    /** Forgets any partially decoded reply and restarts the stream offset at zero. */
    public void reset() {
        state = State.LINE;
        consumed = 0;
        scanned = 0;
        midReply = false;
        bulkMarker = 0;
        stack.clear();
    }

    private int readLine(ByteBuf in, RespSink sink) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        if (start == end) {
            return NEED_MORE;
        }
        byte marker = in.getByte(start);
        checkMarker(marker, start, in);
        int lineStart = start + 1;
        int max = limits.maxLineLength();
        int searchEnd = (int) Math.min(end, (long) lineStart + max + 1);
        int from = lineStart + scanned;
        int cr = from < searchEnd ? in.indexOf(from, searchEnd, CR) : -1;
        if (cr < 0) {
            if (end - lineStart > max) {
                throw error("line longer than maxLineLength " + max + " bytes without CRLF", lineStart + max, in);
            }
            scanned = Math.max(0, end - lineStart);
            return NEED_MORE;
        }
        if (cr + 1 >= end) {
            scanned = cr - lineStart;
            return NEED_MORE;
        }
        if (in.getByte(cr + 1) != LF) {
            throw error("expected LF after CR", cr + 1, in);
        }
        scanned = 0;
        midReply = true;
        int next = cr + 2;
        switch (marker) {
            case '+':
            case '-':
            case '(':
                if (marker == '(') {
                    checkBigNumber(in, lineStart, cr);
                }
                deliver(in, marker, lineStart, cr, sink);
                return consume(in, next, sink);
            case ':':
                sink.integer(parseLong(in, lineStart, cr, "integer"));
                return consume(in, next, sink);
            case '_':
                if (cr != lineStart) {
                    throw error("null with content (expected: \"_\\r\\n\")", lineStart, in);
                }
                sink.nullValue();
                return consume(in, next, sink);
            case '#':
                sink.booleanValue(parseBoolean(in, lineStart, cr));
                return consume(in, next, sink);
            case ',':
                sink.doubleValue(parseDouble(in, lineStart, cr));
                return consume(in, next, sink);
            case '$':
            case '!':
            case '=':
                return bulkHeader(in, marker, lineStart, cr, next, sink);
            default:
                return aggregateHeader(in, marker, lineStart, cr, next, sink);
        }
    }

    private int bulkHeader(ByteBuf in, byte marker, int lineStart, int cr, int next, RespSink sink) {
        long length = parseLength(in, marker, lineStart, cr);
        if (length == -1) {
            sink.nullValue();
            return consume(in, next, sink);
        }
        if (length > limits.maxBulkLength()) {
            throw error("bulk length " + length + " exceeds maxBulkLength " + limits.maxBulkLength(), lineStart, in);
        }
        if (marker == '=' && length < 4) {
            throw error("verbatim string length " + length + " (expected: >= 4 for the \"fmt:\" prefix)",
                    lineStart, in);
        }
        bulkMarker = marker;
        bulkLength = (int) length;
        skipTo(in, next);
        state = State.BULK_BODY;
        return ELEMENT_DONE;
    }

    private int readBulkBody(ByteBuf in, RespSink sink) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int contentEnd = start + bulkLength;
        if (end - start < bulkLength + 2) {
            return NEED_MORE;
        }
        if (in.getByte(contentEnd) != CR) {
            throw error("bulk payload of " + bulkLength + " bytes not followed by CR", contentEnd, in);
        }
        if (in.getByte(contentEnd + 1) != LF) {
            throw error("bulk payload of " + bulkLength + " bytes not followed by LF", contentEnd + 1, in);
        }
        byte marker = bulkMarker;
        if (marker == '=' && in.getByte(start + 3) != ':') {
            throw error("verbatim string without ':' after its 3-byte format", start + 3, in);
        }
        state = State.LINE;
        bulkMarker = 0;
        deliver(in, marker, start, contentEnd, sink);
        return consume(in, contentEnd + 2, sink);
    }

    private int aggregateHeader(ByteBuf in, byte marker, int lineStart, int cr, int next, RespSink sink) {
        long length = parseLength(in, marker, lineStart, cr);
        if (length == -1) {
            sink.nullValue();
            return consume(in, next, sink);
        }
        if (length > limits.maxAggregateLength()) {
            throw error("aggregate length " + length + " exceeds maxAggregateLength "
                    + limits.maxAggregateLength(), lineStart, in);
        }
        if (stack.depth() >= limits.maxDepth()) {
            throw error("aggregates nested deeper than maxDepth " + limits.maxDepth(), lineStart - 1, in);
        }
        RespType type = aggregateType(marker);
        int size = (int) length;
        sink.aggregateStart(type, size);
        if (size == 0) {
            sink.aggregateEnd(type);
            if (type == RespType.ATTRIBUTE) {
                skipTo(in, next);
                return ELEMENT_DONE;
            }
            return consume(in, next, sink);
        }
        stack.push(type, type == RespType.MAP || type == RespType.ATTRIBUTE ? 2L * size : size);
        skipTo(in, next);
        return ELEMENT_DONE;
    }

    /** Consumes a complete element ending before {@code next}; returns whether the reply is complete. */
    private int consume(ByteBuf in, int next, RespSink sink) {
        skipTo(in, next);
        return stack.elementDone(sink) ? REPLY_DONE : ELEMENT_DONE;
    }

    private void skipTo(ByteBuf in, int next) {
        consumed += next - in.readerIndex();
        in.readerIndex(next);
    }

    /**
     * Hands the content {@code [from, to)} to the sink as a window onto {@code in} itself (no
     * allocation), then restores {@code in}'s indexes.
     */
    private static void deliver(ByteBuf in, byte marker, int from, int to, RespSink sink) {
        int readerIndex = in.readerIndex();
        int writerIndex = in.writerIndex();
        try {
            if (marker == '=') {
                ByteBuf format = in.slice(from, 3);
                in.setIndex(from + 4, to);
                sink.verbatimString(format, in);
                return;
            }
            in.setIndex(from, to);
            switch (marker) {
                case '+': sink.simpleString(in); break;
                case '-': case '!': sink.error(in); break;
                case '$': sink.bulkString(in); break;
                default: sink.bigNumber(in); break;
            }
        } finally {
            in.setIndex(readerIndex, writerIndex);
        }
    }

    private static RespType aggregateType(byte marker) {
        switch (marker) {
            case '*': return RespType.ARRAY;
            case '%': return RespType.MAP;
            case '~': return RespType.SET;
            case '|': return RespType.ATTRIBUTE;
            default: return RespType.PUSH;
        }
    }

    private void checkMarker(byte marker, int index, ByteBuf in) {
        switch (marker) {
            case '+': case '-': case ':': case '$': case '*': case '_': case '#': case ',': case '(':
            case '!': case '=': case '%': case '~': case '|': case '>':
                return;
            case ';': case '.':
                throw error("streamed strings and aggregates are not supported (type byte '"
                        + (char) marker + "')", index, in);
            default:
                throw error("unknown type byte " + RespNumbers.describe(marker), index, in);
        }
    }

    private long parseLength(ByteBuf in, byte marker, int lineStart, int cr) {
        if (cr - lineStart == 1 && in.getByte(lineStart) == '?') {
            throw error("streamed strings and aggregates are not supported ('" + (char) marker + "?')",
                    lineStart, in);
        }
        long length = parseLong(in, lineStart, cr, "length");
        boolean nullable = marker == '$' || marker == '*';
        if (length < 0 && !(length == -1 && nullable)) {
            throw error("bad length " + length + " for type '" + (char) marker + "' (expected: >= 0"
                    + (nullable ? " or -1)" : ")"), lineStart, in);
        }
        return length;
    }

    private long parseLong(ByteBuf in, int from, int to, String what) {
        long value = numbers.parseLong(in, from, to);
        if (numbers.errorIndex >= 0) {
            throw error(what + ": " + numbers.error, numbers.errorIndex, in);
        }
        return value;
    }

    private double parseDouble(ByteBuf in, int from, int to) {
        double value = numbers.parseDouble(in, from, to);
        if (numbers.errorIndex >= 0) {
            throw error("double: " + numbers.error, numbers.errorIndex, in);
        }
        return value;
    }

    private boolean parseBoolean(ByteBuf in, int from, int to) {
        if (to - from == 1) {
            byte b = in.getByte(from);
            if (b == 't') {
                return true;
            }
            if (b == 'f') {
                return false;
            }
        }
        throw error("boolean (expected: \"#t\" or \"#f\")", from, in);
    }

    private void checkBigNumber(ByteBuf in, int from, int to) {
        numbers.checkBigNumber(in, from, to);
        if (numbers.errorIndex >= 0) {
            throw error("big number: " + numbers.error, numbers.errorIndex, in);
        }
    }

    private RespProtocolException error(String problem, int index, ByteBuf in) {
        return new RespProtocolException(problem, consumed + (index - in.readerIndex()));
    }
}
