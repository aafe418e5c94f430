package io.hasp.internal.connection;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed set of multiplexed command connections shared by every caller. {@link #next()} picks
 * round robin among the ready connections (any connection when none is ready: the command then
 * waits there for the reconnect). Thread-safe and lock-free.
 */
public final class ConnectionPool {

    private final RedisConnection[] connections;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * @param connections the pool's connections, at least one
     */
    public ConnectionPool(List<RedisConnection> connections) {
        if (connections == null || connections.isEmpty()) {
            throw new IllegalArgumentException("connections: empty (expected: at least one)");
        }
        this.connections = connections.toArray(new RedisConnection[0]);
    }

    /**
     * The connection for the next command.
     *
     * @return a ready connection if there is one
     */
    public RedisConnection next() {
        int n = connections.length;
        int start = n == 1 ? 0 : Math.floorMod(next.getAndIncrement(), n);
        for (int i = 0; i < n; i++) {
            RedisConnection candidate = connections[(start + i) % n];
            if (candidate.isReady()) {
                return candidate;
            }
        }
        return connections[start];
    }

    /** Whether at least one connection is connected and past its handshake now (a snapshot). */
    public boolean anyReady() {
        for (RedisConnection connection : connections) {
            if (connection.isReady()) {
                return true;
            }
        }
        return false;
    }

    /** @return the pool's connections, in a new list */
    public List<RedisConnection> connections() {
        return List.of(connections);
    }

    /**
     * Connects every connection.
     *
     * @return completes when all are ready, or fails with the first failure
     */
    public CompletableFuture<Void> start() {
        CompletableFuture<?>[] started = new CompletableFuture<?>[connections.length];
        for (int i = 0; i < connections.length; i++) {
            started[i] = connections[i].start();
        }
        return CompletableFuture.allOf(started);
    }

    /**
     * Closes every connection; pending commands fail with {@code RedisClosedException}.
     *
     * @return completes when every channel is closed
     */
    public CompletableFuture<Void> close() {
        CompletableFuture<?>[] closed = new CompletableFuture<?>[connections.length];
        for (int i = 0; i < connections.length; i++) {
            closed[i] = connections[i].close();
        }
        return CompletableFuture.allOf(closed);
    }
}
