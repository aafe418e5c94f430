package io.hasp.internal.connection;

import java.util.ArrayDeque;
import java.util.Queue;

/**
 * The commands a {@link RedisConnection} took while it was down (lost and reconnecting, or still making
 * its first connection), in the order they came: they wait here, unsent, until the connection is ready
 * again or their own timeout passes. Event loop only.
 */
final class ParkedCommands {

    private final ArrayDeque<Command<?>> parked = new ArrayDeque<>();

    /** Parks every command of {@code queue} that is still pending, and drops completed ones from the front. */
    void takeAll(Queue<Command<?>> queue) {
        Command<?> command;
        while ((command = queue.poll()) != null) {
            if (!command.isDone()) {
                parked.add(command);
            }
        }
        while (!parked.isEmpty() && parked.peekFirst().isDone()) {
            parked.pollFirst();
        }
    }

    /**
     * Times out the parked commands whose deadline has passed, from the front (deadlines follow the order
     * they came in), and drops completed ones there.
     *
     * @param now the current {@link System#nanoTime()}
     * @param timeoutMillis the timeout, for the message
     */
    void expire(long now, long timeoutMillis) {
        Command<?> head;
        while ((head = parked.peekFirst()) != null && (head.isDone() || head.expired(now))) {
            parked.pollFirst().expireUnsent(timeoutMillis);
        }
    }

    /** Fails every parked command with {@code cause}; none of them was sent. */
    void failAll(Throwable cause) {
        Command<?> command;
        while ((command = parked.poll()) != null) {
            command.fail(cause);
        }
    }

    /** The parked commands, for writing them once the connection is ready: whatever is polled leaves. */
    Queue<Command<?>> queue() {
        return parked;
    }

    boolean isEmpty() {
        return parked.isEmpty();
    }

    int size() {
        return parked.size();
    }
}
