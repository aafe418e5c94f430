package io.hasp;

/**
 * The connection carrying a command was lost or could not be established.
 *
 * <p>A command that fails with this exception may or may not have been executed by the server:
 * hasp never re-sends it on its own.
 */
public class RedisConnectionException extends RedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates a connection failure.
     *
     * @param message which connection and what happened
     */
    public RedisConnectionException(String message) {
        super(message);
    }

    /**
     * Creates a connection failure with its cause.
     *
     * @param message which connection and what happened
     * @param cause the I/O or handshake failure
     */
    public RedisConnectionException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A command that failed with the link may succeed on the next one.
     *
     * @return true
     */
    @Override
    public boolean retryable() {
        return true;
    }
}
