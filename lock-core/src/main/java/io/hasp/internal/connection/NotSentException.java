package io.hasp.internal.connection;

import io.hasp.RedisConnectionException;

/**
 * A command failed before any of it was written: its connection was closed while the command waited for
 * a reconnect. Nothing of it reached the server, so a router may send it to another node as if new.
 */
public final class NotSentException extends RedisConnectionException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message which connection and why it was closed
     */
    public NotSentException(String message) {
        super(message);
    }
}
