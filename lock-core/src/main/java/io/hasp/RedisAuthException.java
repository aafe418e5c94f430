package io.hasp;

/**
 * The server refused the credentials during the connection handshake (wrong password, unknown
 * or disabled ACL user, or a password sent to a server that has none).
 *
 * <p>The message carries the server's error text, never the password.
 */
public class RedisAuthException extends RedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an authentication failure.
     *
     * @param message what was refused, without credentials
     * @param cause the server's error, may be {@code null}
     */
    public RedisAuthException(String message, Throwable cause) {
        super(message, cause);
    }
}
