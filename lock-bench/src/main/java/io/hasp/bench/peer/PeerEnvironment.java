package io.hasp.bench.peer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The peer servers as one fork sees them, and the lock objects it opens on them. The servers are those
 * the runner started ({@code -Dhasp.bench.postgres}, {@code -Dhasp.bench.mariadb},
 * {@code -Dhasp.bench.zookeeper}); a fork never starts one itself. Every lock object gets its own session
 * (a JDBC connection; ZooKeeper locks share the fork's one Curator client, as Curator advises), and every
 * name carries this fork's random prefix. Closes everything it opened at the end of the trial.
 */
@State(Scope.Benchmark)
public class PeerEnvironment {

    /** The lease of a row-lock hold: longer than any benchmark, so no hold expires while measured. */
    static final Duration ROW_LEASE = Duration.ofMinutes(10);

    private final String prefix = "bench-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private final AtomicInteger sequence = new AtomicInteger();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final List<String> tablesCreated = new ArrayList<>();
    private CuratorFramework zooKeeper;

    /**
     * Returns a name unique within this fork.
     *
     * @param role what the name is for
     * @return {@code bench-<fork>-<role>-<n>}
     */
    public String name(String role) {
        return prefix + role + "-" + sequence.incrementAndGet();
    }

    /**
     * Opens a lock object of a peer on its own session.
     *
     * @param peer the peer
     * @param name the lock name
     * @return the lock, closed with this environment
     * @throws Exception when the peer's server cannot be reached
     */
    public synchronized PeerLock open(Peer peer, String name) throws Exception {
        PeerLock lock = switch (peer) {
            case POSTGRES_ADVISORY -> AdvisoryLock.connect(address(peer.server()), name);
            case POSTGRES_ROW -> new RowLock(table(peer, RowLockSql.POSTGRES), RowLockSql.POSTGRES, name, ROW_LEASE);
            case MARIADB_ROW -> new RowLock(table(peer, RowLockSql.MARIADB), RowLockSql.MARIADB, name, ROW_LEASE);
            case ZOOKEEPER -> new ZooKeeperLock(zooKeeper(), name);
        };
        opened.add(lock);
        return lock;
    }

    private Connection connect(Peer peer) throws SQLException {
        return DriverManager.getConnection(address(peer.server()));
    }

    /** A new connection, after creating the row-lock table once per fork and database. */
    private Connection table(Peer peer, RowLockSql sql) throws SQLException {
        Connection connection = connect(peer);
        if (!tablesCreated.contains(peer.server().name())) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql.createTable());
            }
            tablesCreated.add(peer.server().name());
        }
        return connection;
    }

    private CuratorFramework zooKeeper() throws InterruptedException {
        if (zooKeeper == null) {
            zooKeeper = CuratorFrameworkFactory.newClient(address(PeerServer.Kind.ZOOKEEPER),
                    new ExponentialBackoffRetry(100, 3));
            zooKeeper.start();
            if (!zooKeeper.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("ZooKeeper at " + address(PeerServer.Kind.ZOOKEEPER)
                        + ": not connected within 30 s");
            }
        }
        return zooKeeper;
    }

    private static String address(PeerServer.Kind kind) {
        String address = System.getProperty(kind.property());
        if (address == null || address.isBlank()) {
            throw new IllegalStateException("-D" + kind.property() + " is not set: the peer rows run from"
                    + " lock-bench/bench.sh, which starts the servers");
        }
        return address;
    }

    /** Closes every lock's session, then the ZooKeeper client (its remaining nodes go with it). */
    @TearDown(Level.Trial)
    public synchronized void close() {
        for (AutoCloseable lock : opened) {
            try {
                lock.close();
            } catch (Exception e) {
                System.err.println("closing a peer lock: " + e);
            }
        }
        opened.clear();
        if (zooKeeper != null) {
            zooKeeper.close();
            zooKeeper = null;
        }
    }
}
