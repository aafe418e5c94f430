package io.hasp.internal.connection;

/**
 * Hears a connection's lifecycle. Called on the connection's event loop; implementations must
 * not block. Exceptions are caught and logged.
 */
public interface ConnectionListener {

    /**
     * The connection is ready: connected, handshake done, queued commands about to be written.
     *
     * @param connection the connection
     * @param reconnect {@code false} for the first connect, {@code true} after a loss
     */
    void connected(RedisConnection connection, boolean reconnect);

    /**
     * The connection was lost; in-flight commands have failed and a reconnect is scheduled
     * unless the client is closing.
     *
     * @param connection the connection
     */
    void disconnected(RedisConnection connection);
}
