package io.hasp.resp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A command name with its bulk string encoding computed once, e.g. {@code $7\r\nEVALSHA\r\n},
 * so that writing a command header costs a few byte copies. Immutable and thread-safe; keep
 * instances in constants.
 */
public final class CommandName {

    private final String name;
    private final byte[] encoded;

    private CommandName(String name, byte[] encoded) {
        this.name = name;
        this.encoded = encoded;
    }

    /**
     * Returns the command name for {@code name}, sent exactly as given.
     *
     * @param name a non-empty command name such as {@code "EVALSHA"} or {@code "CLIENT"}
     * @return the precomputed name
     */
    public static CommandName of(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: " + (name == null ? "null" : "\"\"") + " (expected: a command name)");
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        byte[] header = ("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] encoded = new byte[header.length + bytes.length + 2];
        System.arraycopy(header, 0, encoded, 0, header.length);
        System.arraycopy(bytes, 0, encoded, header.length, bytes.length);
        encoded[encoded.length - 2] = '\r';
        encoded[encoded.length - 1] = '\n';
        return new CommandName(name, encoded);
    }

    /**
     * Returns the name as given to {@link #of}.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the size of {@link #writeHeader}'s output.
     *
     * @param argCount the number of arguments after the name, {@code >= 0}
     * @return bytes
     */
    public int headerSize(int argCount) {
        checkArgCount(argCount);
        return RespWriter.arrayHeaderSize(argCount + 1) + encoded.length;
    }

    /**
     * Writes {@code *<argCount+1>\r\n$<len>\r\n<NAME>\r\n}; the caller then writes
     * {@code argCount} bulk strings with {@link RespWriter}.
     *
     * @param out the destination
     * @param argCount the number of arguments after the name, {@code >= 0}
     */
    public void writeHeader(ByteBuf out, int argCount) {
        checkArgCount(argCount);
        RespWriter.writeArrayHeader(out, argCount + 1);
        out.writeBytes(encoded);
    }

    private static void checkArgCount(int argCount) {
        if (argCount < 0 || argCount == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("argCount: " + argCount + " (expected: >= 0 and < Integer.MAX_VALUE)");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
