package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisAuthException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The commands that make a fresh channel usable, pipelined in one write: {@code HELLO 3}
 * (with AUTH and SETNAME) for RESP3, or {@code AUTH} and {@code CLIENT SETNAME} for RESP2;
 * then {@code SELECT} when a database other than 0 is configured; a lone {@code PING} when
 * none of these is needed, so that "ready" always means the server answered. Replayed after every
 * reconnect. Runs on the channel's event loop; the password leaves only as a command argument.
 */
final class Handshake {

    private static final CommandName HELLO = CommandName.of("HELLO");
    private static final CommandName AUTH = CommandName.of("AUTH");
    private static final CommandName CLIENT = CommandName.of("CLIENT");
    private static final CommandName SELECT = CommandName.of("SELECT");
    private static final CommandName PING = CommandName.of("PING");

    private Handshake() {
    }

    /**
     * Writes the handshake and completes when every reply was positive.
     *
     * @param connection the connection (for timeouts and messages)
     * @param handler the new channel's handler
     * @return completes on the event loop; fails with {@link RedisAuthException} when the
     *     credentials are refused, {@link RedisConnectionException} otherwise
     */
    static CompletableFuture<Void> run(RedisConnection connection, CommandHandler handler) {
        HaspConfig config = connection.config();
        List<Step> steps = new ArrayList<>(3);
        String user = config.username() != null ? config.username() : "default";
        if (config.protocol() == HaspConfig.Protocol.RESP3) {
            List<Object> args = new ArrayList<>(List.of("3"));
            if (config.hasPassword()) {
                args.addAll(List.of("AUTH", user, new String(config.password())));
            }
            if (config.clientName() != null) {
                args.addAll(List.of("SETNAME", config.clientName()));
            }
            steps.add(new Step(new ArgsCommand<>(Replies.VOID, HELLO, args.toArray()), config.hasPassword()));
        } else {
            if (config.hasPassword()) {
                Object[] args = config.username() != null
                        ? new Object[] {config.username(), new String(config.password())}
                        : new Object[] {new String(config.password())};
                steps.add(new Step(new ArgsCommand<>(Replies.VOID, AUTH, args), true));
            }
            if (config.clientName() != null) {
                steps.add(new Step(new ArgsCommand<>(Replies.VOID, CLIENT, "SETNAME", config.clientName()), false));
            }
        }
        if (config.database() != 0) {
            steps.add(new Step(new ArgsCommand<>(Replies.VOID, SELECT, (long) config.database()), false));
        }
        if (steps.isEmpty()) {
            steps.add(new Step(new ArgsCommand<>(Replies.VOID, PING), false));   // ready means the server answered
        }
        CompletableFuture<?>[] replies = new CompletableFuture<?>[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            connection.startDeadline(step.command);
            handler.write(step.command);
            replies[i] = step.command.handle((ok, failure) -> {
                if (failure != null) {
                    throw new CompletionException(classify(connection, step, failure));
                }
                return ok;
            });
        }
        handler.flush();
        connection.sweepHandshake(handler);
        return CompletableFuture.allOf(replies);
    }

    private static Throwable classify(RedisConnection connection, Step step, Throwable failure) {
        if (failure instanceof RedisServerException) {
            RedisServerException server = (RedisServerException) failure;
            String code = server.code();
            if (code.equals("WRONGPASS") || code.equals("NOAUTH") || code.equals("NOPERM")
                    || (step.authenticates && server.getMessage().toUpperCase().contains("AUTH"))
                    || step.command.name().equals("AUTH")) {
                return new RedisAuthException(connection + ": authentication refused: " + server.getMessage(), server);
            }
            return new RedisConnectionException(connection + ": handshake " + step.command.name()
                    + " refused: " + server.getMessage(), server);
        }
        return failure;
    }

    private static final class Step {
        final ArgsCommand<Void> command;
        final boolean authenticates;

        Step(ArgsCommand<Void> command, boolean authenticates) {
            this.command = command;
            this.authenticates = authenticates;
        }
    }
}
