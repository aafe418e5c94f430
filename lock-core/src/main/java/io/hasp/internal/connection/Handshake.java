package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import io.hasp.RedisAuthException;
import io.hasp.RedisConnectionException;
import io.hasp.RedisProtocolException;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import io.hasp.resp.RespBulkString;
import io.hasp.resp.RespInteger;
import io.hasp.resp.RespMap;
import io.hasp.resp.RespSimpleString;
import io.hasp.resp.RespValue;
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
 *
 * <p>Every reply is checked for its type and content: {@code +OK} for AUTH, CLIENT SETNAME and
 * SELECT, {@code +PONG} for PING, a map for HELLO. Anything else is not a Redis server speaking the
 * protocol hasp asked for, and fails the connection with a {@link RedisProtocolException} that
 * names the command and what came back.
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
        List<Step> steps = steps(connection.connector().config(), connection.connector().endpoint());
        CompletableFuture<?>[] replies = new CompletableFuture<?>[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            connection.startHandshakeDeadline(step.command);
            handler.write(step.command);
            replies[i] = step.command.handle((reply, failure) -> {
                Throwable problem = step.check(connection, reply, failure);
                if (problem != null) {
                    throw new CompletionException(problem);
                }
                return reply;
            });
        }
        handler.flush();
        connection.sweepHandshake(handler);
        return CompletableFuture.allOf(replies);
    }

    /**
     * The handshake's commands for {@code endpoint} with {@code config}, new ones each call, in the
     * order they are written.
     *
     * @param config the client's configuration: the protocol and the client name
     * @param endpoint the server's credentials and database
     * @return at least one step
     */
    static List<Step> steps(HaspConfig config, Endpoint endpoint) {
        List<Step> steps = new ArrayList<>(3);
        String user = endpoint.username() != null ? endpoint.username() : "default";
        if (config.protocol() == HaspConfig.Protocol.RESP3) {
            List<Object> args = new ArrayList<>(List.of("3"));
            if (endpoint.hasPassword()) {
                args.addAll(List.of("AUTH", user, new String(endpoint.password())));
            }
            if (config.clientName() != null) {
                args.addAll(List.of("SETNAME", config.clientName()));
            }
            steps.add(new Step("HELLO", new ArgsCommand<>(Replies.VALUE, HELLO, args.toArray()), endpoint.hasPassword(),
                    Expected.MAP));
        } else {
            if (endpoint.hasPassword()) {
                Object[] args = endpoint.username() != null
                        ? new Object[] {endpoint.username(), new String(endpoint.password())}
                        : new Object[] {new String(endpoint.password())};
                steps.add(new Step("AUTH", new ArgsCommand<>(Replies.VALUE, AUTH, args), true, Expected.OK));
            }
            if (config.clientName() != null) {
                steps.add(new Step("CLIENT SETNAME", new ArgsCommand<>(Replies.VALUE, CLIENT, "SETNAME",
                        config.clientName()), false, Expected.OK));
            }
        }
        if (endpoint.database() != 0) {
            steps.add(new Step("SELECT", new ArgsCommand<>(Replies.VALUE, SELECT, (long) endpoint.database()), false,
                    Expected.OK));
        }
        if (steps.isEmpty()) {   // ready means the server answered
            steps.add(new Step("PING", new ArgsCommand<>(Replies.VALUE, PING), false, Expected.PONG));
        }
        return steps;
    }

    private static Throwable classify(Object connection, Step step, Throwable failure) {
        if (failure instanceof RedisServerException) {
            RedisServerException server = (RedisServerException) failure;
            String code = server.code();
            if (code.equals("WRONGPASS") || code.equals("NOAUTH") || code.equals("NOPERM")
                    || (step.authenticates && server.getMessage().toUpperCase().contains("AUTH"))
                    || step.command.name().equals("AUTH")) {
                return new RedisAuthException(connection + ": authentication refused: " + server.getMessage(), server);
            }
            return new RedisConnectionException(connection + ": handshake " + step.label
                    + " refused: " + server.getMessage(), server);
        }
        return failure;
    }

    /** A reply for the messages: its type and, for short scalars, its content. */
    static String describe(RespValue reply) {
        if (reply instanceof RespSimpleString) {
            return "+" + abbreviate(((RespSimpleString) reply).value());
        }
        if (reply instanceof RespInteger) {
            return "integer " + ((RespInteger) reply).value();
        }
        if (reply instanceof RespBulkString) {
            return "bulk string \"" + abbreviate(((RespBulkString) reply).asString()) + '"';
        }
        if (reply instanceof RespMap) {
            return "a map of " + ((RespMap) reply).entries().size() + " entries";
        }
        return reply == null ? "nothing" : "a reply of type " + reply.type();
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /** What a handshake step's reply must be. */
    private enum Expected {
        OK("+OK") {
            @Override
            boolean matches(RespValue reply) {
                return reply instanceof RespSimpleString && ((RespSimpleString) reply).value().equals("OK");
            }
        },
        PONG("+PONG") {
            @Override
            boolean matches(RespValue reply) {
                return reply instanceof RespSimpleString && ((RespSimpleString) reply).value().equals("PONG");
            }
        },
        MAP("a map of server properties (RESP3)") {
            @Override
            boolean matches(RespValue reply) {
                return reply instanceof RespMap;
            }
        };

        final String description;

        Expected(String description) {
            this.description = description;
        }

        abstract boolean matches(RespValue reply);
    }

    /** One handshake command and what its reply must be. */
    static final class Step {
        final String label;
        final ArgsCommand<RespValue> command;
        final boolean authenticates;
        final Expected expected;

        Step(String label, ArgsCommand<RespValue> command, boolean authenticates, Expected expected) {
            this.label = label;
            this.command = command;
            this.authenticates = authenticates;
            this.expected = expected;
        }

        /**
         * Checks this step's outcome.
         *
         * @param connection the connection, for messages
         * @param reply the reply, when there is one
         * @param failure the failure, or {@code null}
         * @return {@code null} when the server accepted the step; otherwise a {@link RedisAuthException},
         *     {@link RedisProtocolException} or {@link RedisConnectionException} saying why not
         */
        Throwable check(Object connection, RespValue reply, Throwable failure) {
            if (failure != null) {
                return classify(connection, this, failure);
            }
            if (!expected.matches(reply)) {
                return new RedisProtocolException(connection + ": handshake " + label + " answered " + describe(reply)
                        + " (expected: " + expected.description + "); is this a Redis server?", null);
            }
            return null;
        }
    }
}
