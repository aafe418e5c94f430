package io.hasp.resp;

/**
 * A RESP3 boolean.
 *
 * @param value the value
 */
public record RespBoolean(boolean value) implements RespValue {

    @Override
    public RespType type() {
        return RespType.BOOLEAN;
    }
}
