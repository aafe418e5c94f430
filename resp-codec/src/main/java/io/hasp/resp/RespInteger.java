package io.hasp.resp;

/**
 * An integer reply.
 *
 * @param value the value
 */
public record RespInteger(long value) implements RespValue {

    @Override
    public RespType type() {
        return RespType.INTEGER;
    }
}
