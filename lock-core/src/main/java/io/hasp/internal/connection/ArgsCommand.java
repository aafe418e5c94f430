package io.hasp.internal.connection;

import io.hasp.Reply;
import io.hasp.resp.CommandName;
import io.netty.buffer.ByteBuf;

/**
 * A command made of a name and a flat argument array, e.g. {@code GET key} or
 * {@code SCRIPT LOAD <text>} (name {@code SCRIPT}, first argument {@code LOAD}).
 * Arguments are validated when the command is created (see {@link Args}).
 *
 * @param <T> the decoded reply's type
 */
public final class ArgsCommand<T> extends Command<T> {

    private final CommandName command;
    private final Object[] args;
    private final boolean expectsReply;

    /**
     * Creates a command.
     *
     * @param reply how the reply is decoded
     * @param command the command's name
     * @param args the arguments; the array is kept, not copied
     * @throws IllegalArgumentException for a null or unsupported argument
     */
    public ArgsCommand(Reply<T> reply, CommandName command, Object... args) {
        this(reply, command, true, args);
    }

    private ArgsCommand(Reply<T> reply, CommandName command, boolean expectsReply, Object[] args) {
        super(reply);
        Args.validate(args);
        this.command = command;
        this.args = args;
        this.expectsReply = expectsReply;
    }

    /**
     * Creates a command that the server answers with push frames only (SUBSCRIBE, UNSUBSCRIBE):
     * it is written but never waits in the in-flight queue.
     *
     * @param command the command's name
     * @param args the arguments
     * @return the command; its future is never completed by a reply
     */
    public static ArgsCommand<Void> withoutReply(CommandName command, Object... args) {
        return new ArgsCommand<>(io.hasp.Replies.VOID, command, false, args);
    }

    @Override
    public String name() {
        return command.name();
    }

    @Override
    public boolean expectsReply() {
        return expectsReply;
    }

    @Override
    public int encodedSize() {
        int size = command.headerSize(args.length);
        for (Object arg : args) {
            size += Args.size(arg);
        }
        return size;
    }

    @Override
    public void encode(ByteBuf out) {
        command.writeHeader(out, args.length);
        for (Object arg : args) {
            Args.write(out, arg);
        }
    }
}
