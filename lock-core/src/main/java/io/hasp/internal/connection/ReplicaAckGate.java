package io.hasp.internal.connection;

import io.hasp.RedisConnectionException;
import io.hasp.ReplicaAcks;
import io.hasp.ReplicaAcksException;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code WAIT}s (or {@code WAITAOF}s, {@link ReplicaAcks#fsync()}) of one connection, for commands whose
 * writes a number of replicas must confirm ({@link ReplicaAcks}). {@code WAIT} answers for every write the
 * connection sent before it, and the server runs nothing else of the connection while it waits; so the gate
 * keeps at most one {@code WAIT} in flight, whatever settings its commands ask: commands sent meanwhile share
 * the next one, which asks the most replicas and the longest timeout among them (and {@code WAITAOF} when one
 * asks it), and each command is judged by its own setting. A stalled replica therefore holds the connection
 * for one timeout at a time, not one per command.
 *
 * <p>A {@code WAIT} counts for a command only when the command's reply came before the {@code WAIT}'s
 * (replies come in order): a command that the server ran later (one sent again after {@code NOSCRIPT})
 * waits for the next {@code WAIT}. And only when both went on the same link: after a reconnect, a {@code WAIT} on the
 * new link answers for none of the old link's writes, so a command answered on the old one fails with its outcome
 * unknown ({@link RedisConnectionException}), as if its reply had been lost. Futures complete outside the gate's
 * monitor. Thread-safe.
 */
public final class ReplicaAckGate {

    private static final CommandName WAIT = CommandName.of("WAIT");
    private static final CommandName WAITAOF = CommandName.of("WAITAOF");

    private final RedisConnection connection;
    private final Runnable beforeWait;   // null but in tests
    /** Commands sent since the {@code WAIT} in flight (guarded by this). */
    private List<Confirmed<?>> uncovered = new ArrayList<>();
    /** Whether a {@code WAIT} is in flight (guarded by this). */
    private boolean waiting;

    /** @param connection where the commands and their {@code WAIT}s go */
    public ReplicaAckGate(RedisConnection connection) {
        this(connection, null);
    }

    /**
     * A gate that runs {@code beforeWait} between a command's dispatch and the {@code WAIT} sent right behind it: a
     * test's way to replace the link in that moment.
     */
    ReplicaAckGate(RedisConnection connection, Runnable beforeWait) {
        this.connection = connection;
        this.beforeWait = beforeWait;
    }

    /**
     * Dispatches {@code command} and a {@code WAIT} after it (or lets it share the next one).
     *
     * @param acks what must confirm it; enabled
     * @return a future of the command's reply, complete once enough replicas confirmed it; failed with
     *     the command's own failure, the {@code WAIT}'s, or a {@link ReplicaAcksException} (carrying the
     *     reply) when too few confirmed in time
     */
    public <T> CompletableFuture<T> dispatch(Command<T> command, ReplicaAcks acks) {
        Confirmed<T> confirmed = new Confirmed<>(command, acks);
        Round round;
        synchronized (this) {
            connection.dispatch(command);
            uncovered.add(confirmed);
            if (!waiting && beforeWait != null) {
                beforeWait.run();
            }
            round = waiting ? null : sendWait();
        }
        if (round != null) {
            round.listen();
        }
        return confirmed;
    }

    /** The commands one {@code WAIT} covers, and its answer. */
    private final class Round {
        final List<Confirmed<?>> covered;
        final CompletableFuture<Long> wait;

        Round(List<Confirmed<?>> covered, CompletableFuture<Long> wait) {
            this.covered = covered;
            this.wait = wait;
        }

        /**
         * Outside the monitor: a {@code WAIT} that failed at once answers here. An answer comes on the event loop,
         * while the link it came on is still the connection's channel.
         */
        void listen() {
            wait.whenComplete((count, error) -> answered(covered, error == null ? connection.channel() : null, count,
                    error));
        }
    }

    /** Sends a {@code WAIT} for every command not yet covered; holding this. */
    private Round sendWait() {
        List<Confirmed<?>> covered = uncovered;
        uncovered = new ArrayList<>();
        waiting = true;
        int replicas = 0;
        long timeoutMillis = 0;
        boolean fsync = false;
        for (Confirmed<?> command : covered) {
            replicas = Math.max(replicas, command.acks.replicas());
            timeoutMillis = Math.max(timeoutMillis, command.acks.timeout().toMillis());
            fsync |= command.acks.fsync();
        }
        String n = Integer.toString(replicas);
        String timeout = Long.toString(timeoutMillis);
        CompletableFuture<Long> wait = fsync
                // WAITAOF numlocal numreplicas timeout answers [fsynced here, replicas that fsynced]
                ? connection.dispatch(new ArgsCommand<>(Replies.STRING_LIST, WAITAOF, "0", n, timeout))
                        .thenApply(counts -> Long.parseLong(counts.get(1)))
                : connection.dispatch(new StringArgsCommand<>(Replies.LONG, WAIT, n, timeout));
        return new Round(covered, wait);
    }

    private void answered(List<Confirmed<?>> covered, Channel link, Long count, Throwable error) {
        List<Confirmed<?>> ranLater = null;
        for (Confirmed<?> command : covered) {
            if (!command.settle(link, count, error)) {
                if (ranLater == null) {
                    ranLater = new ArrayList<>();
                }
                ranLater.add(command);
            }
        }
        Round next = null;
        synchronized (this) {
            waiting = false;
            if (ranLater != null) {
                uncovered.addAll(ranLater);
            }
            if (!uncovered.isEmpty()) {
                next = sendWait();
            }
        }
        if (next != null) {
            next.listen();
        }
    }

    /** One command's reply, released once a {@code WAIT} after it answered. */
    private final class Confirmed<T> extends CompletableFuture<T> {

        private final Command<T> command;
        final ReplicaAcks acks;
        /** The link the command's reply came on (the event loop's channel then); null until then, or when it failed. */
        private volatile Channel answeredOn;

        Confirmed(Command<T> command, ReplicaAcks acks) {
            this.command = command;
            this.acks = acks;
            // Registered before the command is dispatched (the gate's own command: its one action slot is free).
            command.whenDone((value, error) -> answeredOn = error == null ? connection.channel() : null);
        }

        /**
         * Completes with the {@code WAIT}'s answer, when the command's reply came first. A {@code WAIT} answered on
         * another {@code link} (the connection reconnected in between) confirms nothing of this command, which then
         * fails as its link did, with its outcome unknown.
         *
         * @return false when the command has not answered yet: it ran after this {@code WAIT}
         */
        boolean settle(Channel link, Long count, Throwable waitError) {
            if (!command.isDone()) {
                if (waitError != null) {
                    completeExceptionally(waitError);
                    return true;
                }
                return false;
            }
            if (command.isCompletedExceptionally()) {
                command.whenComplete((value, error) -> completeExceptionally(error));
            } else {
                T value = command.join();
                if (waitError != null) {
                    completeExceptionally(waitError);
                } else if (answeredOn != link) {
                    completeExceptionally(new RedisConnectionException(command.name() + " on " + connection + ": the"
                            + " link it ran on was lost before its WAIT, which went on a new one and confirms nothing of"
                            + " it: whether replicas have it is unknown", null));
                } else if (count < acks.replicas()) {
                    completeExceptionally(new ReplicaAcksException(command.name() + " on " + connection + ": " + count
                            + " of " + acks.replicas() + " replicas confirmed it within " + acks.timeout().toMillis()
                            + " ms", count.intValue(), acks.replicas(), value));
                } else {
                    complete(value);
                }
            }
            return true;
        }
    }
}
