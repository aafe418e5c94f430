package io.hasp;

/**
 * The byte stream from the server could not be decoded, or carried a reply nobody was waiting
 * for. The connection is closed (its stream is out of sync) and every command in flight on it
 * fails with this exception; the client then reconnects.
 */
public class RedisProtocolException extends RedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates a protocol failure.
     *
     * @param message what was malformed
     * @param cause the decoder's exception, may be {@code null}
     */
    public RedisProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
