package io.hasp.resp;

import io.netty.buffer.ByteBuf;

/**
 * Receives the decode events of one top-level reply from a {@link RespReader}.
 *
 * <p>A reply arrives as a sequence of scalar events and, for aggregates, an
 * {@link #aggregateStart} / {@link #aggregateEnd} pair around the events of its elements
 * (for a {@link RespType#MAP} or {@link RespType#ATTRIBUTE}: key, value, key, value, ...).
 * A RESP3 attribute is delivered as an {@link RespType#ATTRIBUTE} aggregate before the value
 * it annotates.
 *
 * <p>Every {@link ByteBuf} argument is a view into the reader's input, valid only during the
 * call: its readable bytes are exactly the content. For all but the verbatim format it is the
 * input buffer itself with its indexes narrowed, restored when the call returns. The sink may
 * read it (and move its reader index), but must not write to it, change its writer index,
 * release it or retain it past the call; copy what it needs. This is what lets a sink that
 * expects e.g. "nil or an integer" decode with zero allocation.
 *
 * <p>Called on the thread that calls {@link RespReader#read}; an implementation need not be
 * thread-safe. An exception thrown by a sink propagates out of {@code read} and resets the
 * reader.
 */
public interface RespSink {

    /**
     * A simple string, e.g. {@code OK}.
     *
     * @param content the bytes between the type marker and CRLF
     */
    void simpleString(ByteBuf content);

    /**
     * An error: a simple error ({@code -}) or a RESP3 bulk error ({@code !}).
     *
     * @param message the error text, usually starting with a code such as {@code ERR} or {@code NOSCRIPT}
     */
    void error(ByteBuf message);

    /**
     * An integer.
     *
     * @param value the value
     */
    void integer(long value);

    /**
     * A bulk string ({@code $}); the RESP2 null bulk string is reported as {@link #nullValue()}.
     *
     * @param content the payload, possibly empty
     */
    void bulkString(ByteBuf content);

    /**
     * A RESP3 verbatim string ({@code =}).
     *
     * @param format the three-byte format, e.g. {@code txt} or {@code mkd}
     * @param content the payload after the {@code format:} prefix
     */
    void verbatimString(ByteBuf format, ByteBuf content);

    /** A null: RESP3 {@code _}, RESP2 {@code $-1} or {@code *-1}. */
    void nullValue();

    /**
     * A RESP3 boolean.
     *
     * @param value the value
     */
    void booleanValue(boolean value);

    /**
     * A RESP3 double, possibly infinite or NaN.
     *
     * @param value the value
     */
    void doubleValue(double value);

    /**
     * A RESP3 big number.
     *
     * @param digits the ASCII digits with an optional leading sign
     */
    void bigNumber(ByteBuf digits);

    /**
     * The start of an aggregate; its elements follow, then {@link #aggregateEnd}.
     *
     * @param type {@link RespType#ARRAY}, {@link RespType#SET}, {@link RespType#PUSH},
     *     {@link RespType#MAP} or {@link RespType#ATTRIBUTE}
     * @param size the number of elements, or for a map or attribute the number of key/value pairs
     */
    void aggregateStart(RespType type, int size);

    /**
     * The end of the innermost open aggregate.
     *
     * @param type the type given to the matching {@link #aggregateStart}
     */
    void aggregateEnd(RespType type);
}
