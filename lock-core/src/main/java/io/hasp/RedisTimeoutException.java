package io.hasp;

/**
 * A command, a subscription or a connect attempt did not complete within its timeout.
 *
 * <p>The command may still have been executed by the server; its late reply is matched to it
 * and dropped, so later commands on the same connection still receive their own replies.
 */
public class RedisTimeoutException extends RedisException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates a timeout failure.
     *
     * @param message what timed out and after how long
     */
    public RedisTimeoutException(String message) {
        super(message);
    }

    /**
     * No reply within the timeout: the command may have run or not, and may succeed when sent again.
     *
     * @return true
     */
    @Override
    public boolean retryable() {
        return true;
    }
}
