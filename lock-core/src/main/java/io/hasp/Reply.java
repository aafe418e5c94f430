package io.hasp;

import io.hasp.resp.RespSink;
import io.hasp.resp.RespType;
import io.netty.buffer.ByteBuf;

/**
 * How one top-level reply becomes a {@code T}. The connection's decoder calls exactly one of the
 * scalar methods, or {@link #aggregate()} followed by the aggregate's events, for each reply.
 * Error replies never reach a {@code Reply}: they fail the command with
 * {@link RedisServerException}.
 *
 * <p>Scalar replies are converted straight from the decoder's buffer views, without building a
 * reply tree; implementations for scalars are stateless singletons (see {@link Replies}).
 * {@code ByteBuf} arguments are views valid only during the call: never retain them.
 *
 * <p>Every method is called on an event-loop thread; implementations must be thread-safe (being
 * stateless is the easy way). A method that throws fails that one command with the exception
 * (wrapped in a {@link RedisException} unless it is one); the connection stays usable.
 * The defaults reject the reply as unexpected.
 *
 * @param <T> the decoded value's type
 */
public abstract class Reply<T> {

    private final String name;

    /** Creates a decoder named after its class. */
    protected Reply() {
        this.name = getClass().getName();
    }

    /**
     * Creates a decoder with a name for messages.
     *
     * @param name e.g. {@code "LONG"}
     */
    protected Reply(String name) {
        this.name = name;
    }

    /**
     * Decodes a simple string ({@code +OK}).
     *
     * @param content the string's bytes
     * @return the value
     */
    public T simpleString(ByteBuf content) {
        throw unexpected("simple string");
    }

    /**
     * Decodes a bulk string ({@code $}).
     *
     * @param content the string's bytes
     * @return the value
     */
    public T bulkString(ByteBuf content) {
        throw unexpected("bulk string");
    }

    /**
     * Decodes a RESP3 verbatim string; by default as a bulk string of its content.
     *
     * @param format the three-byte format, e.g. {@code txt}
     * @param content the string's bytes
     * @return the value
     */
    public T verbatimString(ByteBuf format, ByteBuf content) {
        return bulkString(content);
    }

    /**
     * Decodes an integer ({@code :}).
     *
     * @param value the integer
     * @return the value
     */
    public T integer(long value) {
        throw unexpected("integer");
    }

    /**
     * Decodes a null (RESP2 {@code $-1}/{@code *-1}, RESP3 {@code _}).
     *
     * @return the value
     */
    public T nullValue() {
        throw unexpected("null");
    }

    /**
     * Decodes a RESP3 boolean.
     *
     * @param value the boolean
     * @return the value
     */
    public T booleanValue(boolean value) {
        throw unexpected("boolean");
    }

    /**
     * Decodes a RESP3 double.
     *
     * @param value the double
     * @return the value
     */
    public T doubleValue(double value) {
        throw unexpected("double");
    }

    /**
     * Decodes a RESP3 big number.
     *
     * @param digits the number's ASCII digits
     * @return the value
     */
    public T bigNumber(ByteBuf digits) {
        throw unexpected("big number");
    }

    /**
     * Starts decoding an aggregate reply (array, map, set). The returned collector then receives
     * every event of the reply, starting with the outer {@code aggregateStart} and ending with
     * its {@code aggregateEnd}, after which {@link Collector#result()} is called once.
     *
     * @return a new collector for this one reply
     */
    public Collector<T> aggregate() {
        throw unexpected("aggregate");
    }

    /**
     * Builds the exception for a reply of a type this decoder does not accept.
     *
     * @param what the reply's type, e.g. {@code "bulk string"}
     * @return the exception to throw
     */
    protected final RedisException unexpected(String what) {
        return new RedisException("unexpected " + what + " reply (expected by " + name + ")");
    }

    /**
     * Receives the events of one aggregate reply and produces its value.
     * Used by one connection at a time, on its event loop.
     *
     * @param <T> the decoded value's type
     */
    public interface Collector<T> extends RespSink {

        /**
         * The value, called once after the outer aggregate's end.
         *
         * @return the decoded value
         */
        T result();
    }

    @Override
    public String toString() {
        return "Reply[" + name + "]";
    }

    /** Shared no-op base for collectors that only care about a few events. */
    abstract static class IgnoringCollector<T> implements Collector<T> {
        @Override public void simpleString(ByteBuf content) { }
        @Override public void error(ByteBuf message) { }
        @Override public void integer(long value) { }
        @Override public void bulkString(ByteBuf content) { }
        @Override public void verbatimString(ByteBuf format, ByteBuf content) { }
        @Override public void nullValue() { }
        @Override public void booleanValue(boolean value) { }
        @Override public void doubleValue(double value) { }
        @Override public void bigNumber(ByteBuf digits) { }
        @Override public void aggregateStart(RespType type, int size) { }
        @Override public void aggregateEnd(RespType type) { }
    }
}
