package io.hasp.bench.peer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A PostgreSQL session-level advisory lock on one connection: {@code pg_advisory_lock(key)} waits in the
 * server, {@code pg_try_advisory_lock(key)} answers at once, {@code pg_advisory_unlock(key)} releases one
 * hold (the server counts reentrant holds per session). The key is a 64-bit hash of the lock name. A holder
 * that dies loses its holds with its connection; a holder that only stalls keeps them for as long as its
 * session lives: there is no lease.
 */
public final class AdvisoryLock implements PeerLock {

    private final Connection connection;
    private final PreparedStatement lock;
    private final PreparedStatement tryLock;
    private final PreparedStatement unlock;

    /**
     * Opens a session of its own on the server and prepares the lock's statements.
     *
     * @param jdbcUrl the server's address ({@link PeerServer#address()} of a PostgreSQL server)
     * @param name the lock name
     * @return the lock, holding nothing yet
     * @throws SQLException when the server cannot be reached
     */
    public static AdvisoryLock connect(String jdbcUrl, String name) throws SQLException {
        Connection connection = DriverManager.getConnection(jdbcUrl);
        try {
            return new AdvisoryLock(connection, name);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private AdvisoryLock(Connection connection, String name) throws SQLException {
        this.connection = connection;
        long key = key(name);
        lock = prepare(connection, "SELECT pg_advisory_lock(?)", key);
        tryLock = prepare(connection, "SELECT pg_try_advisory_lock(?)", key);
        unlock = prepare(connection, "SELECT pg_advisory_unlock(?)", key);
    }

    private static PreparedStatement prepare(Connection connection, String sql, long key) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setLong(1, key);
        return statement;
    }

    /** FNV-1a over the name's characters: stable across JVMs, so every process maps a name to one key. */
    static long key(String name) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < name.length(); i++) {
            hash ^= name.charAt(i);
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    @Override
    public void lock() throws SQLException {
        try (ResultSet ignored = lock.executeQuery()) {
            // the call returns once the lock is held
        }
    }

    @Override
    public boolean tryLock() throws SQLException {
        return booleanOf(tryLock);
    }

    @Override
    public void unlock() throws SQLException {
        if (!booleanOf(unlock)) {
            throw new IllegalMonitorStateException("pg_advisory_unlock: this session holds no advisory lock on the key");
        }
    }

    private static boolean booleanOf(PreparedStatement statement) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getBoolean(1);
        }
    }

    /**
     * Returns the process id of this session's server backend, whose CPU time is the server's cost of its calls.
     *
     * @return {@code pg_backend_pid()}
     * @throws SQLException when the server fails
     */
    public long backendPid() throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT pg_backend_pid()")) {
            result.next();
            return result.getLong(1);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
