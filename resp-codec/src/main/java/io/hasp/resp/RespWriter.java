package io.hasp.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Writes RESP command frames (arrays of bulk strings) straight into a {@link ByteBuf}, without
 * creating Strings or intermediate buffers. Stateless and thread-safe.
 *
 * <p>Each {@code writeX} has a {@code xSize} twin returning the exact number of bytes it
 * writes, so a caller sizes the buffer once:
 * <pre>{@code
 * int size = EVALSHA.headerSize(4) + RespWriter.bulkSize(sha) + RespWriter.bulkSize(1L)
 *         + RespWriter.bulkSize(key) + RespWriter.bulkSize(owner);
 * ByteBuf out = alloc.buffer(size);
 * EVALSHA.writeHeader(out, 4);
 * RespWriter.writeBulk(out, sha); ...
 * }</pre>
 * Several commands may be written one after another into the same buffer (pipelining).
 */
public final class RespWriter {

    private static final short CRLF = ('\r' << 8) | '\n';
    private static final int CACHED = 128;
    private static final byte[][] ARRAY_HEADERS = new byte[CACHED][];
    private static final byte[][] BULK_HEADERS = new byte[CACHED][];

    static {
        for (int i = 0; i < CACHED; i++) {
            ARRAY_HEADERS[i] = ("*" + i + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            BULK_HEADERS[i] = ("$" + i + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    private RespWriter() {
    }

    /**
     * Writes an array header {@code *<count>\r\n}.
     *
     * @param out the destination
     * @param count the number of elements that follow, {@code >= 0}
     */
    public static void writeArrayHeader(ByteBuf out, int count) {
        if (count >= 0 && count < CACHED) {
            out.writeBytes(ARRAY_HEADERS[count]);
            return;
        }
        checkCount(count);
        out.writeByte('*');
        writeAscii(out, count);
        out.writeShort(CRLF);
    }

    /**
     * Returns the size of {@link #writeArrayHeader(ByteBuf, int)}'s output.
     *
     * @param count the number of elements, {@code >= 0}
     * @return bytes
     */
    public static int arrayHeaderSize(int count) {
        checkCount(count);
        return 1 + asciiLength(count) + 2;
    }

    /**
     * Writes a bulk string.
     *
     * @param out the destination
     * @param value the payload
     */
    public static void writeBulk(ByteBuf out, byte[] value) {
        writeBulkHeader(out, value.length);
        out.writeBytes(value);
        out.writeShort(CRLF);
    }

    /**
     * Returns the size of {@link #writeBulk(ByteBuf, byte[])}'s output.
     *
     * @param value the payload
     * @return bytes
     */
    public static int bulkSize(byte[] value) {
        return framedSize(value.length);
    }

    /**
     * Writes the readable bytes of {@code value} as a bulk string; neither moves its reader
     * index nor releases it.
     *
     * @param out the destination
     * @param value the payload
     */
    public static void writeBulk(ByteBuf out, ByteBuf value) {
        int length = value.readableBytes();
        writeBulkHeader(out, length);
        out.writeBytes(value, value.readerIndex(), length);
        out.writeShort(CRLF);
    }

    /**
     * Returns the size of {@link #writeBulk(ByteBuf, ByteBuf)}'s output.
     *
     * @param value the payload
     * @return bytes
     */
    public static int bulkSize(ByteBuf value) {
        return framedSize(value.readableBytes());
    }

    /**
     * Writes a string as a UTF-8 bulk string (unpaired surrogates become {@code '?'}).
     *
     * @param out the destination
     * @param value the payload
     */
    public static void writeBulk(ByteBuf out, CharSequence value) {
        int length = ByteBufUtil.utf8Bytes(value);
        writeBulkHeader(out, length);
        ByteBufUtil.reserveAndWriteUtf8(out, value, length);
        out.writeShort(CRLF);
    }

    /**
     * Returns the size of {@link #writeBulk(ByteBuf, CharSequence)}'s output.
     *
     * @param value the payload
     * @return bytes
     */
    public static int bulkSize(CharSequence value) {
        return framedSize(ByteBufUtil.utf8Bytes(value));
    }

    /**
     * Writes a number as a bulk string of its decimal digits, e.g. {@code $2\r\n42\r\n}.
     *
     * @param out the destination
     * @param value the number
     */
    public static void writeBulk(ByteBuf out, long value) {
        int length = asciiLength(value);
        writeBulkHeader(out, length);
        writeAscii(out, value);
        out.writeShort(CRLF);
    }

    /**
     * Returns the size of {@link #writeBulk(ByteBuf, long)}'s output.
     *
     * @param value the number
     * @return bytes
     */
    public static int bulkSize(long value) {
        return framedSize(asciiLength(value));
    }

    /**
     * Writes a bulk string header {@code $<length>\r\n}; the caller writes the payload and CRLF.
     *
     * @param out the destination
     * @param length the payload length, {@code >= 0}
     */
    public static void writeBulkHeader(ByteBuf out, int length) {
        if (length >= 0 && length < CACHED) {
            out.writeBytes(BULK_HEADERS[length]);
            return;
        }
        checkCount(length);
        out.writeByte('$');
        writeAscii(out, length);
        out.writeShort(CRLF);
    }

    /**
     * Writes the decimal digits of {@code value} (with a leading {@code '-'} when negative).
     *
     * @param out the destination
     * @param value the number
     */
    public static void writeAscii(ByteBuf out, long value) {
        int length = asciiLength(value);
        out.ensureWritable(length);
        int start = out.writerIndex();
        int index = start + length;
        // work with the negative magnitude so that Long.MIN_VALUE needs no special case
        long rest = value < 0 ? value : -value;
        do {
            long quotient = rest / 10;
            out.setByte(--index, (int) ('0' + quotient * 10 - rest));
            rest = quotient;
        } while (rest != 0);
        if (value < 0) {
            out.setByte(start, '-');
        }
        out.writerIndex(start + length);
    }

    /**
     * Returns the number of characters of {@code value} in decimal.
     *
     * @param value the number
     * @return 1 to 20
     */
    public static int asciiLength(long value) {
        int sign = 0;
        long rest = value;
        if (rest < 0) {
            sign = 1;
            if (rest == Long.MIN_VALUE) {
                return 20;
            }
            rest = -rest;
        }
        int digits = 1;
        for (long bound = 10; digits < 19 && rest >= bound; bound *= 10) {
            digits++;
        }
        return sign + digits;
    }

    static int framedSize(int length) {
        return 1 + asciiLength(length) + 2 + length + 2;
    }

    private static void checkCount(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count: " + count + " (expected: >= 0)");
        }
    }
}
