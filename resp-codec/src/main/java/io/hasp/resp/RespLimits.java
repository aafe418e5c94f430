package io.hasp.resp;

/**
 * Bounds that protect a {@link RespReader} from hostile or corrupt input. Immutable and
 * thread-safe; build one with {@link #builder()} or use {@link #DEFAULT}.
 *
 * <p>Nothing is ever allocated in proportion to a declared length: a bulk string is only sliced
 * once all its bytes have arrived, and an aggregate's size is only a counter. The limits still
 * bound how much a peer can make the caller buffer or nest.
 */
public final class RespLimits {

    /** The defaults: bulk 512 MiB (Redis's proto-max-bulk-len), aggregates 2^31-1, depth 64, line 64 KiB. */
    public static final RespLimits DEFAULT = builder().build();

    private final int maxBulkLength;
    private final int maxAggregateLength;
    private final int maxDepth;
    private final int maxLineLength;

    private RespLimits(Builder b) {
        this.maxBulkLength = b.maxBulkLength;
        this.maxAggregateLength = b.maxAggregateLength;
        this.maxDepth = b.maxDepth;
        this.maxLineLength = b.maxLineLength;
    }

    /**
     * Returns a builder preset with the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the largest accepted bulk string, bulk error or verbatim string payload.
     *
     * @return bytes
     */
    public int maxBulkLength() {
        return maxBulkLength;
    }

    /**
     * Returns the largest accepted aggregate: elements, or pairs for maps and attributes.
     *
     * @return an element count
     */
    public int maxAggregateLength() {
        return maxAggregateLength;
    }

    /**
     * Returns how deeply aggregates may nest; a top-level array has depth 1.
     *
     * @return a nesting depth
     */
    public int maxDepth() {
        return maxDepth;
    }

    /**
     * Returns the longest accepted line (simple string, error, number, length) without its type
     * byte and CRLF.
     *
     * @return bytes
     */
    public int maxLineLength() {
        return maxLineLength;
    }

    @Override
    public String toString() {
        return "RespLimits{maxBulkLength=" + maxBulkLength + ", maxAggregateLength=" + maxAggregateLength
                + ", maxDepth=" + maxDepth + ", maxLineLength=" + maxLineLength + '}';
    }

    /** Collects limits; not thread-safe. */
    public static final class Builder {
        private int maxBulkLength = 512 * 1024 * 1024;
        private int maxAggregateLength = Integer.MAX_VALUE;
        private int maxDepth = 64;
        private int maxLineLength = 64 * 1024;

        private Builder() {
        }

        /**
         * Sets the largest accepted bulk payload.
         *
         * @param bytes {@code >= 0} and at most {@code Integer.MAX_VALUE - 2}
         * @return this builder
         */
        public Builder maxBulkLength(int bytes) {
            if (bytes < 0 || bytes > Integer.MAX_VALUE - 2) {
                throw new IllegalArgumentException(
                        "maxBulkLength: " + bytes + " (expected: >= 0 and <= Integer.MAX_VALUE - 2)");
            }
            this.maxBulkLength = bytes;
            return this;
        }

        /**
         * Sets the largest accepted aggregate length.
         *
         * @param elements {@code >= 0}
         * @return this builder
         */
        public Builder maxAggregateLength(int elements) {
            if (elements < 0) {
                throw new IllegalArgumentException("maxAggregateLength: " + elements + " (expected: >= 0)");
            }
            this.maxAggregateLength = elements;
            return this;
        }

        /**
         * Sets the deepest accepted nesting of aggregates.
         *
         * @param depth {@code >= 1} and {@code <= 4096}
         * @return this builder
         */
        public Builder maxDepth(int depth) {
            if (depth < 1 || depth > 4096) {
                throw new IllegalArgumentException("maxDepth: " + depth + " (expected: >= 1 and <= 4096)");
            }
            this.maxDepth = depth;
            return this;
        }

        /**
         * Sets the longest accepted line.
         *
         * @param bytes {@code >= 32} (room for any number) and {@code <= 64 MiB}
         * @return this builder
         */
        public Builder maxLineLength(int bytes) {
            if (bytes < 32 || bytes > 64 * 1024 * 1024) {
                throw new IllegalArgumentException("maxLineLength: " + bytes + " (expected: >= 32 and <= 67108864)");
            }
            this.maxLineLength = bytes;
            return this;
        }

        /**
         * Returns the immutable limits.
         *
         * @return the limits collected so far
         */
        public RespLimits build() {
            return new RespLimits(this);
        }
    }
}
