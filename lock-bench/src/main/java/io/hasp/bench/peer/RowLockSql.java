package io.hasp.bench.peer;

/**
 * The statements of {@link RowLock} in one database's dialect. Every expiry is computed from the
 * database's clock, never the client's, so clients with skewed clocks agree on when a hold expires.
 *
 * @param createTable creates the lock table when it is missing
 * @param insertIfAbsent inserts a hold (name, owner, lease ms) unless the name has a row; 1 row when taken
 * @param reenter adds a hold and renews the expiry (lease ms, name, owner)
 * @param takeOver takes an expired row for a new owner (owner, lease ms, name)
 * @param deleteLast deletes the row of an owner's last hold (name, owner)
 * @param release removes one of several holds (name, owner)
 */
record RowLockSql(String createTable, String insertIfAbsent, String reenter, String takeOver, String deleteLast,
        String release) {

    /** The table every row lock of a run shares. */
    static final String TABLE = "hasp_bench_lock";

    /** PostgreSQL: {@code ON CONFLICT DO NOTHING}, so a busy name costs no error and no log line. */
    static final RowLockSql POSTGRES = new RowLockSql(
            "CREATE TABLE IF NOT EXISTS " + TABLE + " (name varchar(200) PRIMARY KEY, owner varchar(100) NOT NULL,"
                    + " holds int NOT NULL, expires_at timestamptz NOT NULL)",
            "INSERT INTO " + TABLE + " (name, owner, holds, expires_at) VALUES (?, ?, 1, now() + ? * interval '1 ms')"
                    + " ON CONFLICT (name) DO NOTHING",
            "UPDATE " + TABLE + " SET holds = holds + 1, expires_at = now() + ? * interval '1 ms'"
                    + " WHERE name = ? AND owner = ?",
            "UPDATE " + TABLE + " SET owner = ?, holds = 1, expires_at = now() + ? * interval '1 ms'"
                    + " WHERE name = ? AND expires_at < now()",
            "DELETE FROM " + TABLE + " WHERE name = ? AND owner = ? AND holds = 1",
            "UPDATE " + TABLE + " SET holds = holds - 1 WHERE name = ? AND owner = ? AND holds > 1");

    /** MariaDB (InnoDB): {@code INSERT IGNORE} for the insert that may meet an existing name. */
    static final RowLockSql MARIADB = new RowLockSql(
            "CREATE TABLE IF NOT EXISTS " + TABLE + " (name varchar(200) PRIMARY KEY, owner varchar(100) NOT NULL,"
                    + " holds int NOT NULL, expires_at datetime(3) NOT NULL) ENGINE=InnoDB",
            "INSERT IGNORE INTO " + TABLE + " (name, owner, holds, expires_at)"
                    + " VALUES (?, ?, 1, TIMESTAMPADD(MICROSECOND, ? * 1000, NOW(3)))",
            "UPDATE " + TABLE + " SET holds = holds + 1, expires_at = TIMESTAMPADD(MICROSECOND, ? * 1000, NOW(3))"
                    + " WHERE name = ? AND owner = ?",
            "UPDATE " + TABLE + " SET owner = ?, holds = 1, expires_at = TIMESTAMPADD(MICROSECOND, ? * 1000, NOW(3))"
                    + " WHERE name = ? AND expires_at < NOW(3)",
            "DELETE FROM " + TABLE + " WHERE name = ? AND owner = ? AND holds = 1",
            "UPDATE " + TABLE + " SET holds = holds - 1 WHERE name = ? AND owner = ? AND holds > 1");
}
