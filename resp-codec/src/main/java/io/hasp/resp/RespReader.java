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

    private final RespLimits limits;
    private final RespNumbers numbers = new RespNumbers();

    private State state = State.LINE;
    /** Bytes consumed since construction or the last reset: the stream offset of readerIndex. */
    private long consumed;
    /** Bytes of the current line already searched for CR, so a growing line is scanned once. */
    private int scanned;
    private boolean midReply;

    private RespType bulkType;
    private int bulkLength;

    /** The open aggregates, innermost at depth - 1; remaining counts elements (2 per map pair). */
    private RespType[] stackTypes = new RespType[8];
    private long[] stackRemaining = new long[8];
    private int depth;

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
    }

    /**
     * Decodes from {@code in}, delivering events to {@code sink}, until one complete top-level
     * reply has been delivered or more bytes are needed.
     *
     * <p>A RESP3 attribute is delivered as an {@link RespType#ATTRIBUTE} aggregate and reading
     * continues with the reply it annotates; true is returned after that reply.
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
                switch (state) {
                    case LINE: {
                        int result = readLine(in, sink);
                        if (result == NEED_MORE) {
                            return false;
                        }
                        if (result == REPLY_DONE) {
                            midReply = false;
                            return true;
                        }
                        break;
                    }
                    case BULK_BODY: {
                        int result = readBulkBody(in, sink);
                        if (result == NEED_MORE) {
                            return false;
                        }
                        if (result == REPLY_DONE) {
                            midReply = false;
                            return true;
                        }
                        break;
                    }
                    default:
                        throw new IllegalStateException("state: " + state);
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
        bulkType = null;
        depth = 0;
    }

    private static final int NEED_MORE = 0;
    private static final int ELEMENT_DONE = 1;
    private static final int REPLY_DONE = 2;

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
                window(in, lineStart, cr);
                try {
                    sink.simpleString(in);
                } finally {
                    in.setIndex(start, end);
                }
                return consume(in, next, sink);
            case '-':
                window(in, lineStart, cr);
                try {
                    sink.error(in);
                } finally {
                    in.setIndex(start, end);
                }
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
            case '(':
                checkBigNumber(in, lineStart, cr);
                window(in, lineStart, cr);
                try {
                    sink.bigNumber(in);
                } finally {
                    in.setIndex(start, end);
                }
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
        bulkType = marker == '$' ? RespType.BULK_STRING
                : marker == '!' ? RespType.BULK_ERROR : RespType.VERBATIM_STRING;
        bulkLength = (int) length;
        consumed += next - in.readerIndex();
        in.readerIndex(next);
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
        RespType type = bulkType;
        if (type == RespType.VERBATIM_STRING && in.getByte(start + 3) != ':') {
            throw error("verbatim string without ':' after its 3-byte format", start + 3, in);
        }
        state = State.LINE;
        bulkType = null;
        try {
            if (type == RespType.BULK_STRING) {
                window(in, start, contentEnd);
                sink.bulkString(in);
            } else if (type == RespType.BULK_ERROR) {
                window(in, start, contentEnd);
                sink.error(in);
            } else {
                ByteBuf format = in.slice(start, 3);
                window(in, start + 4, contentEnd);
                sink.verbatimString(format, in);
            }
        } finally {
            in.setIndex(start, end);
        }
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
        if (depth >= limits.maxDepth()) {
            throw error("aggregates nested deeper than maxDepth " + limits.maxDepth(), lineStart - 1, in);
        }
        RespType type = aggregateType(marker);
        int size = (int) length;
        sink.aggregateStart(type, size);
        if (size == 0) {
            sink.aggregateEnd(type);
            if (type == RespType.ATTRIBUTE) {
                consumed += next - in.readerIndex();
                in.readerIndex(next);
                return ELEMENT_DONE;
            }
            return consume(in, next, sink);
        }
        push(type, type == RespType.MAP || type == RespType.ATTRIBUTE ? 2L * size : size);
        consumed += next - in.readerIndex();
        in.readerIndex(next);
        return ELEMENT_DONE;
    }

    /** Consumes a complete element up to {@code next} and closes every aggregate it completes. */
    private int consume(ByteBuf in, int next, RespSink sink) {
        consumed += next - in.readerIndex();
        in.readerIndex(next);
        while (depth > 0) {
            int top = depth - 1;
            if (--stackRemaining[top] > 0) {
                return ELEMENT_DONE;
            }
            RespType type = stackTypes[top];
            stackTypes[top] = null;
            depth = top;
            sink.aggregateEnd(type);
            if (type == RespType.ATTRIBUTE) {
                // an attribute is not an element: the value it annotates follows
                return ELEMENT_DONE;
            }
        }
        return REPLY_DONE;
    }

    private void push(RespType type, long remaining) {
        if (depth == stackTypes.length) {
            int grown = Math.min(limits.maxDepth(), depth * 2);
            stackTypes = java.util.Arrays.copyOf(stackTypes, grown);
            stackRemaining = java.util.Arrays.copyOf(stackRemaining, grown);
        }
        stackTypes[depth] = type;
        stackRemaining[depth] = remaining;
        depth++;
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

    private static void window(ByteBuf in, int from, int to) {
        in.setIndex(from, to);
    }

    private RespProtocolException error(String problem, int index, ByteBuf in) {
        return new RespProtocolException(problem, consumed + (index - in.readerIndex()));
    }
}
