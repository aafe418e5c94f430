package io.hasp.resp;

import java.util.List;

/**
 * A RESP3 set (kept as a list in wire order; duplicates are kept).
 *
 * @param elements the elements in wire order (an unmodifiable copy)
 */
public record RespSet(List<RespValue> elements) implements RespValue {

    /**
     * Copies the elements.
     *
     * @param elements the elements in wire order
     */
    public RespSet {
        elements = List.copyOf(elements);
    }

    /**
     * Creates the value from its elements.
     *
     * @param elements the elements in wire order
     * @return the value
     */
    public static RespSet of(RespValue... elements) {
        return new RespSet(List.of(elements));
    }

    @Override
    public RespType type() {
        return RespType.SET;
    }
}
