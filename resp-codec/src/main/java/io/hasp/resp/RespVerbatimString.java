package io.hasp.resp;

/**
 * A RESP3 verbatim string.
 *
 * @param format the three-character format, e.g. {@code txt} or {@code mkd}
 * @param content the text after the {@code format:} prefix (decoded as UTF-8)
 */
public record RespVerbatimString(String format, String content) implements RespValue {

    /**
     * Validates the components.
     *
     * @param format the three-character format
     * @param content the text
     */
    public RespVerbatimString {
        if (format == null || format.length() != 3) {
            throw new IllegalArgumentException("format: " + format + " (expected: 3 characters)");
        }
        if (content == null) {
            throw new NullPointerException("content");
        }
    }

    @Override
    public RespType type() {
        return RespType.VERBATIM_STRING;
    }
}
