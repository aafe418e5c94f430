package io.hasp.bench.peer;

/**
 * The locks users pick instead of a Redis lock, each measured beside hasp in the same run. A peer
 * benchmark method is named after its peer ({@link #method()}), so a fork knows from its method which
 * lock to open.
 */
public enum Peer {

    /** PostgreSQL's session-level advisory locks: {@code pg_advisory_lock}/{@code pg_advisory_unlock}. */
    POSTGRES_ADVISORY("postgresAdvisory", "PostgreSQL advisory", PeerServer.Kind.POSTGRES),

    /** A row under a unique key (insert to lock, delete to unlock) in a PostgreSQL table: {@link RowLock}. */
    POSTGRES_ROW("postgresRow", "Row lock, PostgreSQL", PeerServer.Kind.POSTGRES),

    /** The same row lock in a MariaDB (InnoDB) table. */
    MARIADB_ROW("mariadbRow", "Row lock, MariaDB", PeerServer.Kind.MARIADB),

    /** ZooKeeper's sequential ephemeral nodes through Curator's {@code InterProcessMutex}. */
    ZOOKEEPER("zookeeper", "ZooKeeper (Curator)", PeerServer.Kind.ZOOKEEPER);

    private final String method;
    private final String label;
    private final PeerServer.Kind server;

    Peer(String method, String label, PeerServer.Kind server) {
        this.method = method;
        this.label = label;
        this.server = server;
    }

    /**
     * Returns the name of this peer's {@code @Benchmark} methods.
     *
     * @return e.g. {@code postgresAdvisory}
     */
    public String method() {
        return method;
    }

    /**
     * Returns the column heading of this peer in the results.
     *
     * @return e.g. {@code PostgreSQL advisory}
     */
    public String label() {
        return label;
    }

    /**
     * Returns the server this peer's lock lives on.
     *
     * @return the server kind
     */
    public PeerServer.Kind server() {
        return server;
    }

    /**
     * Returns the peer a benchmark method measures.
     *
     * @param method the {@code @Benchmark} method's simple name
     * @return the peer
     * @throws IllegalArgumentException when no peer has that method name
     */
    public static Peer ofMethod(String method) {
        for (Peer peer : values()) {
            if (peer.method.equals(method)) {
                return peer;
            }
        }
        throw new IllegalArgumentException("no peer lock is measured by a method named " + method);
    }
}
