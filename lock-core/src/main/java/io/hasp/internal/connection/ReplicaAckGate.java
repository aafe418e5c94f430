package io.hasp.internal.connection;

import io.hasp.ReplicaAcks;
import io.hasp.ReplicaAcksException;
import io.hasp.Replies;
import io.hasp.resp.CommandName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code WAIT}s (or {@code WAITAOF}s, {@link ReplicaAcks#fsync()}) of one connection, for commands whose
 * writes a number of replicas must confirm ({@link ReplicaAcks}). {@code WAIT} answers for every write the connection sent before it, and the
 * server runs nothing else of the connection while it waits; so the gate keeps at most one {@code WAIT}
 * in flight: commands sent meanwhile share the next one, sent when the first answers. A stalled replica
 * therefore holds the connection for one timeout at a time, not one per command.
 *
 * <p>A {@code WAIT} counts for a command only when the command's reply came before the {@code WAIT}'s
 * (replies come in order): a command that the server ran later (one sent again after {@code NOSCRIPT})
 * waits for the next {@code WAIT}. Thread-safe.
 */
public final class ReplicaAckGate {

    private static final CommandName WAIT = CommandName.of("WAIT");
    private static final CommandName WAITAOF = CommandName.of("WAITAOF");

    private final RedisConnection connection;
    private final ReplicaAcks acks;
    private final String replicas;
    private final String timeoutMillis;
    /** Commands sent since the {@code WAIT} in flight (guarded by this). */
    private List<Confirmed<?>> uncovered = new ArrayList<>();
    /** Whether a {@code WAIT} is in flight (guarded by this). */
    private boolean waiting;

    /**
     * @param connection where the commands and their {@code WAIT}s go
     * @param acks how many replicas must confirm, within how long; enabled
     */
    public ReplicaAckGate(RedisConnection connection, ReplicaAcks acks) {
        if (!acks.enabled()) {
            throw new IllegalArgumentException("acks: " + acks + " (expected: enabled)");
        }
        this.connection = connection;
        this.acks = acks;
        this.replicas = Integer.toString(acks.replicas());
        this.timeoutMillis = Long.toString(acks.timeout().toMillis());
    }

    /**
     * Dispatches {@code command} and a {@code WAIT} after it (or lets it share the next one).
     *
     * @return a future of the command's reply, complete once enough replicas confirmed it; failed with
     *     the command's own failure, the {@code WAIT}'s, or a {@link ReplicaAcksException} (carrying the
     *     reply) when too few confirmed in time
     */
    public <T> CompletableFuture<T> dispatch(Command<T> command) {
        Confirmed<T> confirmed = new Confirmed<>(command);
        synchronized (this) {
            connection.dispatch(command);
            uncovered.add(confirmed);
            if (!waiting) {
                sendWait();
            }
        }
        return confirmed;
    }

    /** Sends a {@code WAIT} for every command not yet covered; holding this. */
    private void sendWait() {
        List<Confirmed<?>> covered = uncovered;
        uncovered = new ArrayList<>();
        waiting = true;
        CompletableFuture<Long> wait = acks.fsync()
                // WAITAOF numlocal numreplicas timeout answers [fsynced here, replicas that fsynced]
                ? connection.dispatch(new ArgsCommand<>(Replies.STRING_LIST, WAITAOF, "0", replicas, timeoutMillis))
                        .thenApply(counts -> Long.parseLong(counts.get(1)))
                : connection.dispatch(new StringArgsCommand<>(Replies.LONG, WAIT, replicas, timeoutMillis));
        wait.whenComplete((count, error) -> answered(covered, count, error));
    }

    private void answered(List<Confirmed<?>> covered, Long count, Throwable error) {
        List<Confirmed<?>> ranLater = null;
        for (Confirmed<?> command : covered) {
            if (!command.settle(count, error)) {
                if (ranLater == null) {
                    ranLater = new ArrayList<>();
                }
                ranLater.add(command);
            }
        }
        synchronized (this) {
            waiting = false;
            if (ranLater != null) {
                uncovered.addAll(ranLater);
            }
            if (!uncovered.isEmpty()) {
                sendWait();
            }
        }
    }

    /** One command's reply, released once a {@code WAIT} after it answered. */
    private final class Confirmed<T> extends CompletableFuture<T> {

        private final Command<T> command;

        Confirmed(Command<T> command) {
            this.command = command;
        }

        /**
         * Completes with the {@code WAIT}'s answer, when the command's reply came first.
         *
         * @return false when the command has not answered yet: it ran after this {@code WAIT}
         */
        boolean settle(Long count, Throwable waitError) {
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
