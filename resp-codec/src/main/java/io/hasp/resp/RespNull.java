package io.hasp.resp;

/** A null: RESP3 {@code _}, RESP2's null bulk string or null array. Use {@link #INSTANCE}. */
public record RespNull() implements RespValue {

    /** The null value. */
    public static final RespNull INSTANCE = new RespNull();

    @Override
    public RespType type() {
        return RespType.NULL;
    }
}
