package io.hasp.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link RespSink} that builds the {@link RespValue} tree of one reply: feed it to
 * {@link RespReader#read} and call {@link #build()} once {@code read} returned true.
 * Reusable for any number of replies; not thread-safe (one per reader).
 *
 * <p>An attribute becomes a {@link RespAttribute} wrapping the value it annotates.
 */
public final class RespValueBuilder implements RespSink {

    /** The largest list pre-sized from a declared aggregate length; the rest grows on demand. */
    private static final int MAX_PRESIZE = 1024;
    /** A level whose list grew past this is given a fresh list, so one huge reply is not kept alive. */
    private static final int MAX_RETAINED = 4 * MAX_PRESIZE;

    /** One open aggregate; level 0 is the root that receives the reply itself. */
    private static final class Level {
        RespType type;
        ArrayList<RespValue> items = new ArrayList<>();
        /** Attributes read at this level, waiting for the value they annotate; the first is outermost. */
        ArrayList<Map<RespValue, RespValue>> pendingAttributes;
    }

    private final ArrayList<Level> levels = new ArrayList<>();
    private int depth;

    /** Creates an empty builder. */
    public RespValueBuilder() {
        levels.add(new Level());
    }

    /**
     * Returns the reply built from the events received since the last call, and starts over.
     *
     * @return the value
     * @throws IllegalStateException when no complete reply has been received
     */
    public RespValue build() {
        Level root = levels.get(0);
        if (depth != 0 || root.items.size() != 1 || hasPending(root)) {
            String problem = "no complete reply (open aggregates: " + depth + ", values: " + root.items.size() + ")";
            reset();
            throw new IllegalStateException(problem);
        }
        RespValue value = root.items.get(0);
        root.items.clear();
        return value;
    }

    /** Discards any partially built reply. */
    public void reset() {
        for (Level level : levels) {
            level.items.clear();
            level.pendingAttributes = null;
            level.type = null;
        }
        depth = 0;
    }

    @Override
    public void simpleString(ByteBuf content) {
        add(new RespSimpleString(content.toString(StandardCharsets.UTF_8)));
    }

    @Override
    public void error(ByteBuf message) {
        add(new RespError(message.toString(StandardCharsets.UTF_8)));
    }

    @Override
    public void integer(long value) {
        add(new RespInteger(value));
    }

    @Override
    public void bulkString(ByteBuf content) {
        add(RespBulkString.wrap(ByteBufUtil.getBytes(content)));
    }

    @Override
    public void verbatimString(ByteBuf format, ByteBuf content) {
        add(new RespVerbatimString(format.toString(StandardCharsets.US_ASCII), content.toString(StandardCharsets.UTF_8)));
    }

    @Override
    public void nullValue() {
        add(RespNull.INSTANCE);
    }

    @Override
    public void booleanValue(boolean value) {
        add(new RespBoolean(value));
    }

    @Override
    public void doubleValue(double value) {
        add(new RespDouble(value));
    }

    @Override
    public void bigNumber(ByteBuf digits) {
        add(new RespBigNumber(new BigInteger(digits.toString(StandardCharsets.US_ASCII))));
    }

    @Override
    public void aggregateStart(RespType type, int size) {
        depth++;
        if (depth == levels.size()) {
            levels.add(new Level());
        }
        Level level = levels.get(depth);
        level.type = type;
        int expected = type == RespType.MAP || type == RespType.ATTRIBUTE ? 2 * Math.min(size, MAX_PRESIZE) : size;
        level.items.ensureCapacity(Math.min(expected, 2 * MAX_PRESIZE));
    }

    @Override
    public void aggregateEnd(RespType type) {
        if (depth == 0) {
            throw new IllegalStateException("aggregateEnd(" + type + ") without an open aggregate");
        }
        Level level = levels.get(depth);
        if (level.type != type) {
            throw new IllegalStateException("aggregateEnd(" + type + ") closes a " + level.type);
        }
        List<RespValue> items = level.items;
        RespValue value;
        switch (type) {
            case ARRAY: value = new RespArray(items); break;
            case SET: value = new RespSet(items); break;
            case PUSH: value = new RespPush(items); break;
            case MAP: value = new RespMap(toMap(items)); break;
            case ATTRIBUTE: value = null; break;
            default: throw new IllegalStateException("aggregateEnd(" + type + "): not an aggregate type");
        }
        Map<RespValue, RespValue> attributes = type == RespType.ATTRIBUTE ? toMap(items) : null;
        if (items.size() > MAX_RETAINED) {
            level.items = new ArrayList<>();
        } else {
            items.clear();
        }
        level.type = null;
        depth--;
        if (attributes != null) {
            Level parent = levels.get(depth);
            if (parent.pendingAttributes == null) {
                parent.pendingAttributes = new ArrayList<>(2);
            }
            parent.pendingAttributes.add(attributes);
        } else {
            add(value);
        }
    }

    private void add(RespValue value) {
        Level level = levels.get(depth);
        if (hasPending(level)) {
            List<Map<RespValue, RespValue>> pending = level.pendingAttributes;
            for (int i = pending.size() - 1; i >= 0; i--) {
                value = new RespAttribute(pending.get(i), value);
            }
            pending.clear();
        }
        level.items.add(value);
    }

    private static boolean hasPending(Level level) {
        return level.pendingAttributes != null && !level.pendingAttributes.isEmpty();
    }

    private static Map<RespValue, RespValue> toMap(List<RespValue> items) {
        Map<RespValue, RespValue> map = new LinkedHashMap<>(Math.max(4, items.size()));
        for (int i = 0; i + 1 < items.size(); i += 2) {
            map.put(items.get(i), items.get(i + 1));
        }
        return map;
    }
}
