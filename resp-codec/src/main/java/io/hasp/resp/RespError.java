package io.hasp.resp;

/**
 * An error reply, simple ({@code -}) or RESP3 bulk ({@code !}).
 *
 * @param message the error text (decoded as UTF-8), e.g. {@code "NOSCRIPT No matching script."}
 */
public record RespError(String message) implements RespValue {

    /**
     * Validates the message.
     *
     * @param message the error text
     */
    public RespError {
        if (message == null) {
            throw new NullPointerException("message");
        }
    }

    /**
     * Returns the error code: the first word of the message, e.g. {@code NOSCRIPT}.
     *
     * @return the code, or the whole message when it has no space
     */
    public String code() {
        int space = message.indexOf(' ');
        return space < 0 ? message : message.substring(0, space);
    }

    @Override
    public RespType type() {
        return RespType.ERROR;
    }
}
