package io.hasp.resp;

import java.util.List;

/**
 * An array.
 *
 * @param elements the elements in wire order (an unmodifiable copy)
 */
public record RespArray(List<RespValue> elements) implements RespValue {

    /**
     * Copies the elements.
     *
     * @param elements the elements in wire order
     */
    public RespArray {
        elements = List.copyOf(elements);
    }

    /**
     * Creates the value from its elements.
     *
     * @param elements the elements in wire order
     * @return the value
     */
    public static RespArray of(RespValue... elements) {
        return new RespArray(List.of(elements));
    }

    @Override
    public RespType type() {
        return RespType.ARRAY;
    }
}
