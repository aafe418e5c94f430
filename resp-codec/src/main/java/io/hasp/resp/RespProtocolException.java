package io.hasp.resp;

/**
 * Thrown when bytes received from a server are not valid RESP or exceed the configured
 * {@link RespLimits}. The message names the problem and the byte offset; after it, the stream
 * is out of sync and the connection should be closed.
 */
public class RespProtocolException extends RuntimeException {

    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    /** The stream offset of the offending byte. */
    private final long offset;

    /**
     * Creates an exception for a problem found at a byte offset.
     *
     * @param problem what is wrong, e.g. {@code "unknown type byte 0x41 'A'"}
     * @param offset the offset of the offending byte, counted from the start of the stream
     *     (see {@link RespReader} for what the start is)
     */
    public RespProtocolException(String problem, long offset) {
        super(problem + " (at byte offset " + offset + ")");
        this.offset = offset;
    }

    /**
     * Returns the offset of the offending byte, counted from the first byte the reader
     * consumed after its creation or its last reset.
     *
     * @return the byte offset, {@code >= 0}
     */
    public long offset() {
        return offset;
    }
}
