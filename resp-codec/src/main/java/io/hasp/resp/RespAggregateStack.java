package io.hasp.resp;

import java.util.Arrays;

/**
 * The open aggregates of the reply a {@link RespReader} is decoding: an explicit stack instead of
 * recursion. Each entry counts the elements still expected (two per map or attribute pair).
 * Not thread-safe; owned by one reader.
 */
final class RespAggregateStack {

    private final int maxDepth;
    private RespType[] types = new RespType[8];
    private long[] remaining = new long[8];
    private int depth;

    RespAggregateStack(int maxDepth) {
        this.maxDepth = maxDepth;
    }

    /** Returns the number of open aggregates. */
    int depth() {
        return depth;
    }

    /** Opens an aggregate expecting {@code elements} more elements ({@code > 0}); the caller checked the depth. */
    void push(RespType type, long elements) {
        if (depth == types.length) {
            int grown = Math.min(maxDepth, depth * 2);
            types = Arrays.copyOf(types, grown);
            remaining = Arrays.copyOf(remaining, grown);
        }
        types[depth] = type;
        remaining[depth] = elements;
        depth++;
    }

    /**
     * Records that an element is complete and closes, innermost first, every aggregate it
     * completes, telling the sink.
     *
     * @return true when the top-level reply is complete
     */
    boolean elementDone(RespSink sink) {
        while (depth > 0) {
            int top = depth - 1;
            if (--remaining[top] > 0) {
                return false;
            }
            RespType type = types[top];
            types[top] = null;
            depth = top;
            sink.aggregateEnd(type);
            if (type == RespType.ATTRIBUTE) {
                // an attribute is not an element of its parent: the value it annotates follows
                return false;
            }
        }
        return true;
    }

    /** Forgets every open aggregate. */
    void clear() {
        Arrays.fill(types, 0, depth, null);
        depth = 0;
    }
}
