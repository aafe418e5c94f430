package io.hasp.resp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A value with the RESP3 attribute ({@code |}) that preceded it on the wire.
 *
 * @param attributes the attribute's key/value pairs (an unmodifiable, ordered copy)
 * @param value the annotated value
 */
public record RespAttribute(Map<RespValue, RespValue> attributes, RespValue value) implements RespValue {

    /**
     * Copies the attributes and validates the value.
     *
     * @param attributes the attribute pairs
     * @param value the annotated value
     */
    public RespAttribute {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        if (value == null) {
            throw new NullPointerException("value");
        }
    }

    @Override
    public RespType type() {
        return RespType.ATTRIBUTE;
    }
}
