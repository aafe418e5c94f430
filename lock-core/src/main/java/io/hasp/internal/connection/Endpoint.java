package io.hasp.internal.connection;

import io.hasp.HaspConfig;
import java.nio.file.Path;

/**
 * Where one connection goes and who it is there: a TCP address (over TLS or not) or a Unix socket,
 * the credentials and the database. How it connects (timeouts, protocol, TLS trust, client name) is
 * the client's {@link HaspConfig}. A cluster's nodes share the configured endpoint but for the
 * address ({@link #at}). Immutable; the password never appears in {@link #toString()}.
 */
public final class Endpoint {

    private final String host;
    private final int port;
    private final Path socketPath;
    private final boolean tls;
    private final String username;
    private final char[] password;
    private final int database;

    private Endpoint(String host, int port, Path socketPath, boolean tls, String username, char[] password,
            int database) {
        this.host = host;
        this.port = port;
        this.socketPath = socketPath;
        this.tls = tls;
        this.username = username;
        this.password = password;
        this.database = database;
    }

    /** The server {@code config} names: its host and port, or its Unix socket, with its credentials and database. */
    public static Endpoint of(HaspConfig config) {
        return new Endpoint(config.host(), config.port(), config.socketPath(), config.tls(), config.username(),
                config.password(), config.database());
    }

    /** The same credentials, database and TLS at {@code host:port} over TCP. */
    public Endpoint at(String host, int port) {
        return new Endpoint(host, port, null, tls, username, password, database);
    }

    /** The host name or address; unused over a Unix socket. */
    public String host() {
        return host;
    }

    /** The TCP port; unused over a Unix socket. */
    public int port() {
        return port;
    }

    /** The Unix socket, or null for TCP. */
    public Path socketPath() {
        return socketPath;
    }

    /** Whether the connection speaks TLS. */
    public boolean tls() {
        return tls;
    }

    /** The ACL user, or null for the default user. */
    public String username() {
        return username;
    }

    /** Whether a password is set. */
    public boolean hasPassword() {
        return password != null;
    }

    /** A copy of the password, or null for none. */
    public char[] password() {
        return password == null ? null : password.clone();
    }

    /** The database to select, 0 for the default. */
    public int database() {
        return database;
    }

    /** The address for messages: {@code host:port}, or the socket's path. */
    public String address() {
        return socketPath != null ? socketPath.toString() : host + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "tls " : "") + address() + (database != 0 ? " db " + database : "")
                + (username != null ? " user " + username : "");
    }
}
