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

    /**
     * Whether the same command may succeed when sent again later: the failure says "not now" (a lost
     * link, a timeout, a server loading its data or failing over), not "no". hasp's locks re-send such
     * commands within their wait or retry budget and give up at once on the others.
     *
     * @return false here; true for connection failures, timeouts and the server's transient errors
     */
    public boolean retryable() {
        return false;
    }
}
