package io.hasp.resp;

/**
 * The kinds of RESP2 and RESP3 values a server can send, one constant per wire type.
 *
 * <p>RESP2 knows {@link #SIMPLE_STRING}, {@link #ERROR}, {@link #INTEGER}, {@link #BULK_STRING}
 * and {@link #ARRAY} (its null bulk string and null array are reported as {@link #NULL}); the
 * others are RESP3 additions. Immutable and thread-safe.
 */
public enum RespType {
    /** {@code +OK\r\n}. */
    SIMPLE_STRING('+'),
    /** {@code -ERR message\r\n}. */
    ERROR('-'),
    /** {@code :42\r\n}. */
    INTEGER(':'),
    /** {@code $3\r\nfoo\r\n}. */
    BULK_STRING('$'),
    /** {@code *2\r\n...}: an ordered list of values. */
    ARRAY('*'),
    /** RESP3 {@code _\r\n}; also RESP2's {@code $-1\r\n} and {@code *-1\r\n}. */
    NULL('_'),
    /** RESP3 {@code #t\r\n} or {@code #f\r\n}. */
    BOOLEAN('#'),
    /** RESP3 {@code ,3.14\r\n}, including {@code inf}, {@code -inf} and {@code nan}. */
    DOUBLE(','),
    /** RESP3 {@code (3492890328409238509324850943850943825024385\r\n}. */
    BIG_NUMBER('('),
    /** RESP3 {@code !21\r\nSYNTAX invalid syntax\r\n}. */
    BULK_ERROR('!'),
    /** RESP3 {@code =15\r\ntxt:Some string\r\n}. */
    VERBATIM_STRING('='),
    /** RESP3 {@code %2\r\n...}: key/value pairs. */
    MAP('%'),
    /** RESP3 {@code ~2\r\n...}: an unordered collection of distinct values. */
    SET('~'),
    /** RESP3 {@code |1\r\n...}: key/value pairs annotating the value that follows. */
    ATTRIBUTE('|'),
    /** RESP3 {@code >3\r\n...}: out-of-band data such as pub/sub messages. */
    PUSH('>');

    private final byte marker;

    RespType(char marker) {
        this.marker = (byte) marker;
    }

    /**
     * Returns the byte that introduces this type on the wire.
     *
     * @return the type marker, e.g. {@code '*'} for {@link #ARRAY}
     */
    public byte marker() {
        return marker;
    }

    /**
     * Returns whether values of this type contain other values.
     *
     * @return true for {@link #ARRAY}, {@link #MAP}, {@link #SET}, {@link #ATTRIBUTE} and {@link #PUSH}
     */
    public boolean isAggregate() {
        return this == ARRAY || this == MAP || this == SET || this == ATTRIBUTE || this == PUSH;
    }
}
