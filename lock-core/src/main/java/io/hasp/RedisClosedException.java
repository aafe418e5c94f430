package io.hasp;

/**
 * The client was closed: pending commands fail with this exception and new ones are refused.
 */
public class RedisClosedException extends RedisConnectionException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates a closed-client failure.
     *
     * @param message what was refused or abandoned
     */
    public RedisClosedException(String message) {
        super(message);
    }

    /**
     * The client is closed: nothing sent through it again can succeed.
     *
     * @return false
     */
    @Override
    public boolean retryable() {
        return false;
    }
}
