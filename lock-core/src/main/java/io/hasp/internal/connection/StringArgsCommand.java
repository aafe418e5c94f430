package io.hasp.internal.connection;

import io.hasp.Reply;
import io.hasp.resp.CommandName;
import io.hasp.resp.RespWriter;
import io.netty.buffer.ByteBuf;

/**
 * A command with no, one or two string arguments held in fields, e.g. {@code PING},
 * {@code GET key} or {@code HGET key field}: the common commands need no argument array. The
 * arguments are checked when the command is created, with the same messages as
 * {@link ArgsCommand} ({@code args[0]}, {@code args[1]}).
 *
 * @param <T> the decoded reply's type
 */
public final class StringArgsCommand<T> extends Command<T> {

    private final CommandName command;
    private final String first;    // null: no arguments
    private final String second;   // null: at most one argument

    /**
     * Creates a command without arguments.
     *
     * @param reply how the reply is decoded
     * @param command the command's name
     */
    public StringArgsCommand(Reply<T> reply, CommandName command) {
        super(reply);
        this.command = command;
        this.first = null;
        this.second = null;
    }

    /**
     * Creates a command with one argument.
     *
     * @param reply how the reply is decoded
     * @param command the command's name
     * @param first the argument
     * @throws IllegalArgumentException when it is null
     */
    public StringArgsCommand(Reply<T> reply, CommandName command, String first) {
        super(reply);
        Args.validate("args[0]", first);
        this.command = command;
        this.first = first;
        this.second = null;
    }

    /**
     * Creates a command with two arguments.
     *
     * @param reply how the reply is decoded
     * @param command the command's name
     * @param first the first argument
     * @param second the second argument
     * @throws IllegalArgumentException naming the first null argument
     */
    public StringArgsCommand(Reply<T> reply, CommandName command, String first, String second) {
        super(reply);
        Args.validate("args[0]", first);
        Args.validate("args[1]", second);
        this.command = command;
        this.first = first;
        this.second = second;
    }

    @Override
    public String name() {
        return command.name();
    }

    private int count() {
        return first == null ? 0 : second == null ? 1 : 2;
    }

    @Override
    public int encodedSize() {
        int size = command.headerSize(count());
        if (first != null) {
            size += RespWriter.bulkSize(first);
        }
        if (second != null) {
            size += RespWriter.bulkSize(second);
        }
        return size;
    }

    @Override
    public void encode(ByteBuf out) {
        command.writeHeader(out, count());
        if (first != null) {
            RespWriter.writeBulk(out, first);
        }
        if (second != null) {
            RespWriter.writeBulk(out, second);
        }
    }
}
