package io.hasp;

import io.hasp.resp.RespType;
import io.hasp.resp.RespValue;
import io.hasp.resp.RespValueBuilder;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The stock {@link Reply} decoders. All are stateless singletons, safe to share between threads
 * and commands; the scalar ones allocate nothing beyond the value they return.
 */
public final class Replies {

    /** An integer as a {@code Long}, or {@code null} for a nil reply (e.g. a script that answers nil or a number). */
    public static final Reply<Long> NULL_OR_LONG = new Reply<>("NULL_OR_LONG") {
        @Override public Long integer(long value) { return value; }
        @Override public Long nullValue() { return null; }
    };

    /** An integer as a {@code Long}; anything else fails the command. */
    public static final Reply<Long> LONG = new Reply<>("LONG") {
        @Override public Long integer(long value) { return value; }
    };

    /** Integer 1/0, RESP3 boolean, {@code +OK} (true) or nil (false) as a {@code Boolean}. */
    public static final Reply<Boolean> BOOLEAN = new Reply<>("BOOLEAN") {
        @Override public Boolean integer(long value) { return value != 0; }
        @Override public Boolean booleanValue(boolean value) { return value; }
        @Override public Boolean nullValue() { return Boolean.FALSE; }
        @Override public Boolean simpleString(ByteBuf content) { return Boolean.TRUE; }
    };

    /** A bulk, simple or verbatim string decoded as UTF-8 (integers and doubles as text); nil as {@code null}. */
    public static final Reply<String> STRING = new Reply<>("STRING") {
        @Override public String simpleString(ByteBuf content) { return content.toString(StandardCharsets.UTF_8); }
        @Override public String bulkString(ByteBuf content) { return content.toString(StandardCharsets.UTF_8); }
        @Override public String integer(long value) { return Long.toString(value); }
        @Override public String doubleValue(double value) { return Double.toString(value); }
        @Override public String nullValue() { return null; }
    };

    /** A status reply such as {@code +OK}, returned as its text. */
    public static final Reply<String> OK = new Reply<>("OK") {
        @Override public String simpleString(ByteBuf content) {
            return content.readableBytes() == 2 && content.getByte(content.readerIndex()) == 'O'
                    && content.getByte(content.readerIndex() + 1) == 'K'
                    ? "OK" : content.toString(StandardCharsets.US_ASCII);
        }
    };

    /** Any reply, ignored: the future completes with {@code null} once the reply arrived. */
    public static final Reply<Void> VOID = new Reply<>("VOID") {
        @Override public Void simpleString(ByteBuf content) { return null; }
        @Override public Void bulkString(ByteBuf content) { return null; }
        @Override public Void integer(long value) { return null; }
        @Override public Void nullValue() { return null; }
        @Override public Void booleanValue(boolean value) { return null; }
        @Override public Void doubleValue(double value) { return null; }
        @Override public Void bigNumber(ByteBuf digits) { return null; }
        @Override public Collector<Void> aggregate() {
            return new IgnoringCollector<>() {
                @Override public Void result() { return null; }
            };
        }
    };

    /** Any reply as the codec's general {@link RespValue} tree (allocates; for rare or complex replies). */
    public static final Reply<RespValue> VALUE = new Reply<>("VALUE") {
        @Override public RespValue simpleString(ByteBuf content) { return build(b -> b.simpleString(content)); }
        @Override public RespValue bulkString(ByteBuf content) { return build(b -> b.bulkString(content)); }
        @Override public RespValue verbatimString(ByteBuf format, ByteBuf content) {
            return build(b -> b.verbatimString(format, content));
        }
        @Override public RespValue integer(long value) { return build(b -> b.integer(value)); }
        @Override public RespValue nullValue() { return build(RespValueBuilder::nullValue); }
        @Override public RespValue booleanValue(boolean value) { return build(b -> b.booleanValue(value)); }
        @Override public RespValue doubleValue(double value) { return build(b -> b.doubleValue(value)); }
        @Override public RespValue bigNumber(ByteBuf digits) { return build(b -> b.bigNumber(digits)); }
        @Override public Collector<RespValue> aggregate() { return new TreeCollector(); }
    };

    /** An array of bulk strings (nil elements as {@code null}) as a {@code List<String>}; a nil reply as an empty list. */
    public static final Reply<List<String>> STRING_LIST = new Reply<>("STRING_LIST") {
        @Override public List<String> nullValue() { return List.of(); }
        @Override public Collector<List<String>> aggregate() { return new StringListCollector(); }
    };

    private Replies() {
    }

    private static RespValue build(java.util.function.Consumer<RespValueBuilder> event) {
        RespValueBuilder builder = new RespValueBuilder();
        event.accept(builder);
        return builder.build();
    }

    private static final class TreeCollector implements Reply.Collector<RespValue> {
        private final RespValueBuilder builder = new RespValueBuilder();

        @Override public void simpleString(ByteBuf content) { builder.simpleString(content); }
        @Override public void error(ByteBuf message) { builder.error(message); }
        @Override public void integer(long value) { builder.integer(value); }
        @Override public void bulkString(ByteBuf content) { builder.bulkString(content); }
        @Override public void verbatimString(ByteBuf format, ByteBuf content) { builder.verbatimString(format, content); }
        @Override public void nullValue() { builder.nullValue(); }
        @Override public void booleanValue(boolean value) { builder.booleanValue(value); }
        @Override public void doubleValue(double value) { builder.doubleValue(value); }
        @Override public void bigNumber(ByteBuf digits) { builder.bigNumber(digits); }
        @Override public void aggregateStart(RespType type, int size) { builder.aggregateStart(type, size); }
        @Override public void aggregateEnd(RespType type) { builder.aggregateEnd(type); }
        @Override public RespValue result() { return builder.build(); }
    }

    private static final class StringListCollector extends Reply.IgnoringCollector<List<String>> {
        private List<String> list;
        private int depth;

        @Override public void aggregateStart(RespType type, int size) {
            if (depth++ == 0) {
                list = new ArrayList<>(Math.max(0, type == RespType.MAP ? size * 2 : size));
            }
        }
        @Override public void aggregateEnd(RespType type) { depth--; }
        @Override public void bulkString(ByteBuf content) { add(content.toString(StandardCharsets.UTF_8)); }
        @Override public void simpleString(ByteBuf content) { add(content.toString(StandardCharsets.UTF_8)); }
        @Override public void integer(long value) { add(Long.toString(value)); }
        @Override public void nullValue() { add(null); }
        private void add(String value) {
            if (depth == 1) {
                list.add(value);
            }
        }
        @Override public List<String> result() { return list == null ? List.of() : list; }
    }
}
