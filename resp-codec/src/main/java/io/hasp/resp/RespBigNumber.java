package io.hasp.resp;

import java.math.BigInteger;

/**
 * A RESP3 big number.
 *
 * @param value the value
 */
public record RespBigNumber(BigInteger value) implements RespValue {

    /**
     * Validates the value.
     *
     * @param value the value
     */
    public RespBigNumber {
        if (value == null) {
            throw new NullPointerException("value");
        }
    }

    @Override
    public RespType type() {
        return RespType.BIG_NUMBER;
    }
}
