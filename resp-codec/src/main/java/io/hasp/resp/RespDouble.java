package io.hasp.resp;

/**
 * A RESP3 double; compares like {@link Double#equals} (NaN equals NaN).
 *
 * @param value the value, possibly infinite or NaN
 */
public record RespDouble(double value) implements RespValue {

    @Override
    public RespType type() {
        return RespType.DOUBLE;
    }
}
