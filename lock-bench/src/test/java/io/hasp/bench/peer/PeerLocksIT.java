package io.hasp.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.testing.Conditions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The peer locks the benchmark measures hasp against, on their real servers (started here as the runner
 * starts them): each excludes a second session, is reentrant for its holder, refuses an unlock by a
 * non-holder, and keeps a counter exact under contention; and what happens when a holder dies or outlives
 * its lease, as the README's "Which lock should I use?" tells it.
 */
class PeerLocksIT {

    private static final Map<PeerServer.Kind, PeerServer> SERVERS = new EnumMap<>(PeerServer.Kind.class);
    private static final Map<PeerServer.Kind, String> UNAVAILABLE = new EnumMap<>(PeerServer.Kind.class);

    private PeerEnvironment env;

    @BeforeAll
    static void startServers() throws Exception {
        Path logs = Files.createDirectories(Path.of("target", "peer-servers"));
        for (PeerServer.Kind kind : PeerServer.Kind.values()) {
            try {
                PeerServer server = kind.start(logs);
                SERVERS.put(kind, server);
                System.setProperty(kind.property(), server.address());
            } catch (PeerServer.Unavailable e) {
                UNAVAILABLE.put(kind, e.getMessage());
            }
        }
        // PostgreSQL and ZooKeeper ship with the build; only MariaDB may be missing from a machine
        assertFalse(UNAVAILABLE.containsKey(PeerServer.Kind.POSTGRES), () -> UNAVAILABLE.get(PeerServer.Kind.POSTGRES));
        assertFalse(UNAVAILABLE.containsKey(PeerServer.Kind.ZOOKEEPER), () -> UNAVAILABLE.get(PeerServer.Kind.ZOOKEEPER));
    }

    @AfterAll
    static void stopServers() {
        SERVERS.forEach((kind, server) -> {
            server.close();
            System.clearProperty(kind.property());
        });
        SERVERS.clear();
    }

    @BeforeEach
    void newEnvironment() {
        env = new PeerEnvironment();
    }

    @AfterEach
    void closeEnvironment() {
        env.close();
    }

    private static void requireServer(Peer peer) {
        Assumptions.assumeTrue(SERVERS.containsKey(peer.server()),
                () -> peer.label() + ": " + UNAVAILABLE.get(peer.server()));
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void aSecondSessionIsRefusedUntilEveryHoldIsReleased(Peer peer) throws Exception {
        requireServer(peer);
        String name = env.name("exclusive");
        PeerLock first = env.open(peer, name);
        PeerLock second = env.open(peer, name);
        assertTrue(first.tryLock());
        assertTrue(first.tryLock(), "reentrant for its holder");
        assertFalse(second.tryLock());
        first.unlock();
        assertFalse(second.tryLock(), "one hold left");
        first.unlock();
        assertTrue(second.tryLock());
        second.unlock();
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void anUnlockWithoutAHoldIsRefused(Peer peer) throws Exception {
        requireServer(peer);
        String name = env.name("not-held");
        PeerLock holder = env.open(peer, name);
        PeerLock other = env.open(peer, name);
        assertThrows(IllegalMonitorStateException.class, other::unlock);
        holder.lock();
        assertThrows(IllegalMonitorStateException.class, other::unlock);
        holder.unlock();
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void contendingSessionsKeepACounterExact(Peer peer) throws Exception {
        requireServer(peer);
        String name = env.name("counter");
        int threads = 4;
        int turns = 50;
        List<PeerLock> locks = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            locks.add(env.open(peer, name));
        }
        int[] counter = {0};
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (PeerLock lock : locks) {
                done.add(pool.submit(() -> {
                    for (int turn = 0; turn < turns; turn++) {
                        lock.lock();
                        int seen = counter[0];
                        Thread.yield();
                        counter[0] = seen + 1;
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
        assertEquals(threads * turns, counter[0]);
    }

    @ParameterizedTest
    @EnumSource(value = Peer.class, names = {"POSTGRES_ADVISORY", "ZOOKEEPER"})
    void aSessionLockIsFreedWhenItsHolderDies(Peer peer) throws Exception {
        requireServer(peer);
        String name = env.name("dead-holder");
        PeerLock waiter = env.open(peer, name);
        PeerLock holder = peer == Peer.ZOOKEEPER ? zooKeeperOfItsOwn(name) : env.open(peer, name);
        assertTrue(holder.tryLock());
        assertFalse(waiter.tryLock());
        holder.close();
        assertTrue(Conditions.await(Duration.ofSeconds(30), () -> attempt(waiter)),
                "the server frees a dead session's lock");
        waiter.unlock();
    }

    /** A holder on a ZooKeeper client of its own, so that closing it ends its session as a process's death would. */
    private static PeerLock zooKeeperOfItsOwn(String name) throws Exception {
        PeerEnvironment own = new PeerEnvironment();
        PeerLock lock = own.open(Peer.ZOOKEEPER, name);
        return new PeerLock() {
            @Override
            public void lock() throws Exception {
                lock.lock();
            }

            @Override
            public boolean tryLock() throws Exception {
                return lock.tryLock();
            }

            @Override
            public void unlock() throws Exception {
                lock.unlock();
            }

            @Override
            public void close() {
                own.close();
            }
        };
    }

    @ParameterizedTest
    @EnumSource(value = Peer.class, names = {"POSTGRES_ROW", "MARIADB_ROW"})
    void aRowOutlivesItsDeadHolderUntilItsLeaseEndsThenIsTakenOver(Peer peer) throws Exception {
        requireServer(peer);
        RowLockSql sql = peer == Peer.POSTGRES_ROW ? RowLockSql.POSTGRES : RowLockSql.MARIADB;
        String url = System.getProperty(peer.server().property());
        String name = env.name("row-lease");
        env.open(peer, env.name("creates-the-table")).close();
        try (RowLock holder = new RowLock(DriverManager.getConnection(url), sql, name, Duration.ofSeconds(2));
                RowLock next = new RowLock(DriverManager.getConnection(url), sql, name, Duration.ofMinutes(1))) {
            assertTrue(holder.tryLock());
            holder.close();   // the holder dies: its row stays
            assertFalse(next.tryLock(), "the row is left behind while its lease runs");
            assertTrue(Conditions.await(Duration.ofSeconds(30), () -> attempt(next)), "taken over after the lease");
            next.unlock();
        }
    }

    @Test
    void aRowHolderThatRunsPastItsLeaseIsOvertakenAndLearnsItAtUnlock() throws Exception {
        requireServer(Peer.POSTGRES_ROW);
        String url = System.getProperty(PeerServer.Kind.POSTGRES.property());
        String name = env.name("row-overrun");
        env.open(Peer.POSTGRES_ROW, env.name("creates-the-table")).close();
        try (RowLock slow = new RowLock(DriverManager.getConnection(url), RowLockSql.POSTGRES, name, Duration.ofSeconds(1));
                RowLock next = new RowLock(DriverManager.getConnection(url), RowLockSql.POSTGRES, name, Duration.ofMinutes(1))) {
            assertTrue(slow.tryLock());
            assertTrue(Conditions.await(Duration.ofSeconds(30), () -> attempt(next)), "no renewal: the lease ends");
            assertThrows(IllegalMonitorStateException.class, slow::unlock);
            next.unlock();
        }
    }

    private static boolean attempt(PeerLock lock) {
        try {
            return lock.tryLock();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
