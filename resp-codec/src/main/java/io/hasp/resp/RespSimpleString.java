package io.hasp.resp;

/**
 * A simple string such as {@code OK}.
 *
 * @param value the text (decoded as UTF-8)
 */
public record RespSimpleString(String value) implements RespValue {

    /**
     * Validates the value.
     *
     * @param value the text
     */
    public RespSimpleString {
        if (value == null) {
            throw new NullPointerException("value");
        }
    }

    @Override
    public RespType type() {
        return RespType.SIMPLE_STRING;
    }
}
