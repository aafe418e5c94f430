package io.hasp.resp;

/**
 * A decoded RESP value: one small immutable type per RESP type, built by
 * {@link RespValueBuilder} or {@link RespValueDecoder}. All implementations are immutable,
 * thread-safe and compare by value.
 */
public sealed interface RespValue
        permits RespSimpleString, RespError, RespInteger, RespBulkString, RespNull, RespBoolean, RespDouble,
        RespBigNumber, RespVerbatimString, RespArray, RespMap, RespSet, RespPush, RespAttribute {

    /**
     * Returns the wire type of this value.
     *
     * @return the type; {@link RespType#ERROR} for both simple and bulk errors
     */
    RespType type();
}
