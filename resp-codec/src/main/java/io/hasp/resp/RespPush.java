package io.hasp.resp;

import java.util.List;

/**
 * A RESP3 push message (out-of-band data, e.g. a pub/sub message).
 *
 * @param elements the elements in wire order (an unmodifiable copy)
 */
public record RespPush(List<RespValue> elements) implements RespValue {

    /**
     * Copies the elements.
     *
     * @param elements the elements in wire order
     */
    public RespPush {
        elements = List.copyOf(elements);
    }

    /**
     * Creates the value from its elements.
     *
     * @param elements the elements in wire order
     * @return the value
     */
    public static RespPush of(RespValue... elements) {
        return new RespPush(List.of(elements));
    }

    @Override
    public RespType type() {
        return RespType.PUSH;
    }
}
