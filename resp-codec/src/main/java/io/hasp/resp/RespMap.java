package io.hasp.resp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A RESP3 map. Iterates in wire order; a key repeated on the wire keeps its last value.
 *
 * @param entries the key/value pairs (an unmodifiable, ordered copy)
 */
public record RespMap(Map<RespValue, RespValue> entries) implements RespValue {

    /**
     * Copies the entries, keeping their order.
     *
     * @param entries the key/value pairs
     */
    public RespMap {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    @Override
    public RespType type() {
        return RespType.MAP;
    }
}
