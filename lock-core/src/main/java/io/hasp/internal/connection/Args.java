package io.hasp.internal.connection;

import io.hasp.resp.RespWriter;
import io.netty.buffer.ByteBuf;

/**
 * Encodes command arguments as RESP bulk strings. Accepted types: {@link CharSequence} (UTF-8),
 * {@code byte[]}, {@link ByteBuf} (its readable bytes; not released), and integral
 * {@link Number}s ({@code Long}, {@code Integer}, {@code Short}, {@code Byte}). Stateless.
 */
public final class Args {

    private Args() {
    }

    /**
     * Checks that every argument has an accepted type.
     *
     * @param args the arguments
     * @throws IllegalArgumentException naming the first bad argument
     */
    public static void validate(Object[] args) {
        if (args == null) {
            throw new IllegalArgumentException("args: null (expected: an array, possibly empty)");
        }
        for (int i = 0; i < args.length; i++) {
            if (!accepted(args[i])) {          // the label is built only for the message
                validate("args[" + i + "]", args[i]);
            }
        }
    }

    /**
     * Checks that one argument has an accepted type.
     *
     * @param label the argument's name for the message
     * @param arg the argument
     * @throws IllegalArgumentException when it is null or of another type
     */
    public static void validate(String label, Object arg) {
        if (accepted(arg)) {
            return;
        }
        throw new IllegalArgumentException(label + ": " + (arg == null ? "null" : arg.getClass().getName())
                + " (expected: String, byte[], ByteBuf, Long or Integer)");
    }

    private static boolean accepted(Object arg) {
        return arg instanceof CharSequence || arg instanceof byte[] || arg instanceof ByteBuf
                || arg instanceof Long || arg instanceof Integer || arg instanceof Short || arg instanceof Byte;
    }

    /**
     * The encoded size of one validated argument.
     *
     * @param arg the argument
     * @return its size as a bulk string
     */
    public static int size(Object arg) {
        if (arg instanceof CharSequence) {
            return RespWriter.bulkSize((CharSequence) arg);
        } else if (arg instanceof byte[]) {
            return RespWriter.bulkSize((byte[]) arg);
        } else if (arg instanceof ByteBuf) {
            return RespWriter.bulkSize((ByteBuf) arg);
        }
        return RespWriter.bulkSize(((Number) arg).longValue());
    }

    /**
     * Writes one validated argument as a bulk string.
     *
     * @param out the buffer
     * @param arg the argument
     */
    public static void write(ByteBuf out, Object arg) {
        if (arg instanceof CharSequence) {
            RespWriter.writeBulk(out, (CharSequence) arg);
        } else if (arg instanceof byte[]) {
            RespWriter.writeBulk(out, (byte[]) arg);
        } else if (arg instanceof ByteBuf) {
            RespWriter.writeBulk(out, (ByteBuf) arg);
        } else {
            RespWriter.writeBulk(out, ((Number) arg).longValue());
        }
    }
}
