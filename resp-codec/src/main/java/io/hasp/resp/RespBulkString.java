package io.hasp.resp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A bulk string: binary-safe bytes. Immutable; compares by content. */
public final class RespBulkString implements RespValue {

    private final byte[] bytes;

    private RespBulkString(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Creates a bulk string holding a copy of {@code bytes}.
     *
     * @param bytes the content
     * @return the value
     */
    public static RespBulkString of(byte[] bytes) {
        return new RespBulkString(bytes.clone());
    }

    /**
     * Creates a bulk string holding the UTF-8 encoding of {@code text}.
     *
     * @param text the content
     * @return the value
     */
    public static RespBulkString of(String text) {
        return new RespBulkString(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Wraps an array the caller hands over and never touches again. */
    static RespBulkString wrap(byte[] bytes) {
        return new RespBulkString(bytes);
    }

    /**
     * Returns a copy of the content.
     *
     * @return the bytes
     */
    public byte[] bytes() {
        return bytes.clone();
    }

    /**
     * Returns the content length.
     *
     * @return bytes
     */
    public int length() {
        return bytes.length;
    }

    /**
     * Returns the content decoded as UTF-8.
     *
     * @return the text
     */
    public String asString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public RespType type() {
        return RespType.BULK_STRING;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RespBulkString other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "RespBulkString[" + asString() + "]";
    }
}
