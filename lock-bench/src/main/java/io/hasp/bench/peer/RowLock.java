package io.hasp.bench.peer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.UUID;

/**
 * The lock the classic database write-ups describe: one row per held name under a unique key. Insert the
 * row to lock (the unique index refuses a second holder), delete it to unlock; a {@code holds} count makes
 * it reentrant for its owner, and an {@code expires_at} column lets another owner take over the row of a
 * holder that died (after the lease, measured on the database's clock). There is no renewal: a holder that
 * runs past its lease can be overtaken. A waiter polls: it retries the insert after 1 ms, doubling the pause
 * up to {@link #MAX_PAUSE_MS} ms; an attempt the database rolls back as a deadlock (InnoDB does so with
 * racing inserts on one key) counts as busy. Each statement is its own transaction (auto-commit), so a hold is durable
 * as soon as the call returns.
 */
final class RowLock implements PeerLock {

    /** The longest pause between two attempts of a waiting {@link #lock()}. */
    static final long MAX_PAUSE_MS = 32;

    private final Connection connection;
    private final String name;
    private final String owner = UUID.randomUUID().toString();
    private final long leaseMillis;
    private final PreparedStatement insertIfAbsent;
    private final PreparedStatement reenter;
    private final PreparedStatement takeOver;
    private final PreparedStatement deleteLast;
    private final PreparedStatement release;

    RowLock(Connection connection, RowLockSql sql, String name, Duration lease) throws SQLException {
        this.connection = connection;
        this.name = name;
        this.leaseMillis = lease.toMillis();
        connection.setAutoCommit(true);
        insertIfAbsent = connection.prepareStatement(sql.insertIfAbsent());
        insertIfAbsent.setString(1, name);
        insertIfAbsent.setString(2, owner);
        insertIfAbsent.setLong(3, leaseMillis);
        reenter = connection.prepareStatement(sql.reenter());
        reenter.setLong(1, leaseMillis);
        reenter.setString(2, name);
        reenter.setString(3, owner);
        takeOver = connection.prepareStatement(sql.takeOver());
        takeOver.setString(1, owner);
        takeOver.setLong(2, leaseMillis);
        takeOver.setString(3, name);
        deleteLast = connection.prepareStatement(sql.deleteLast());
        deleteLast.setString(1, name);
        deleteLast.setString(2, owner);
        release = connection.prepareStatement(sql.release());
        release.setString(1, name);
        release.setString(2, owner);
    }

    @Override
    public void lock() throws SQLException, InterruptedException {
        long pause = 1;
        while (!tryLock()) {
            Thread.sleep(pause);
            pause = Math.min(pause * 2, MAX_PAUSE_MS);
        }
    }

    @Override
    public boolean tryLock() throws SQLException {
        try {
            return insertIfAbsent.executeUpdate() == 1 || reenter.executeUpdate() == 1 || takeOver.executeUpdate() == 1;
        } catch (SQLTransactionRollbackException e) {
            // InnoDB resolves racing inserts on one key by rolling one back as a deadlock: the name was busy
            return false;
        }
    }

    @Override
    public void unlock() throws SQLException {
        if (deleteLast.executeUpdate() == 1 || release.executeUpdate() == 1) {
            return;
        }
        throw new IllegalMonitorStateException("row lock " + name + ": owner " + owner
                + " holds no row (never locked, or its lease expired and another owner took the row)");
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
