package io.hasp;

/**
 * Base of every failure the hasp client reports: futures returned by the client fail with a
 * subtype of this exception (or with {@link IllegalArgumentException} for bad arguments, which
 * are thrown before anything is sent).
 *
 * <p>Messages never contain passwords. Instances are immutable and safe to share.
 */
public class RedisException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message.
     *
     * @param message what went wrong, never containing credentials
     */
    public RedisException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message and a cause.
     *
     * @param message what went wrong, never containing credentials
     * @param cause the underlying failure, may be {@code null}
     */
    public RedisException(String message, Throwable cause) {
        super(message, cause);
    }
}
