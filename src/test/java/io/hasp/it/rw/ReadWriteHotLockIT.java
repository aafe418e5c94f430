package io.hasp.it.rw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.it.HotContention;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One hot read/write lock shared by many processes, each a client of its own, one thread each: the processes waiting
 * for the write lock take turns, as the reentrant lock's do, so a release wakes one waiting process instead of one in
 * every process, and readers still enter together. On one server, a local Redis Cluster (sharded channels) and
 * behind Sentinel; on a Redis 6 cluster, where a publish cannot count its listeners, the processes take no turns,
 * and each test checks that the lock works as before, its line never used.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class ReadWriteHotLockIT {

    /** The processes that contend in each test. */
    private static final int PROCESSES = 16;

    private static TopologyServers servers;
    private static List<HaspClient> clients;

    @Parameter
    Topology topology;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
        clients = new ArrayList<>();
        for (int i = 0; i < PROCESSES; i++) {
            clients.add(RwTesting.client(servers.uri(), Duration.ofSeconds(30)));
        }
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        try {
            for (HaspClient client : clients) {
                client.close();
            }
        } finally {
            servers.close();
        }
    }

    private static String name(TestInfo test) {
        return "rw-hot:" + test.getTestMethod().orElseThrow().getName();
    }

    private static HaspReadWriteLock lock(HaspClient client, String name) {
        return HaspReadWriteLocks.of(client).get(name);
    }

    private static long scripts(String name) {
        return HotContention.scripts(servers, name);
    }

    /**
     * One writer thread per client of {@code writers} takes the write lock, increments a plain counter and unlocks,
     * until {@code total} acquisitions are done, while the first {@code readers} clients each run a reader thread
     * beside it that checks no write lands under its read lock; returns each client's write acquisitions.
     */
    private static long[] contend(List<HaspClient> writers, int readers, String name, int total) throws Exception {
        return HotContention.run(writers.stream().map(client -> lock(client, name).writeLock()).toList(),
                writers.subList(0, readers).stream().map(client -> lock(client, name).readLock()).toList(), total);
    }

    /** Where processes take no turns: the lock's line is never used, and a contended run stays exact. */
    private static boolean checkedWithoutTurns(String name) throws Exception {
        if (servers.publishCountsListeners()) {
            return false;
        }
        contend(clients, 4, name, 400);
        assertEquals(0L, servers.call(name, "EXISTS", "hasp_rwlock_line:{" + name + "}"), "nobody stood in line");
        assertEquals(0L, servers.call(name, "EXISTS", "hasp_rwlock_turn:{" + name + "}"), "no turn was given");
        return true;
    }

    @Test
    void sixteenWritingProcessesRunAtMostTwoAndAHalfScriptsPerAcquisition(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        contend(clients, 0, name, 200);   // every client subscribed, the scripts loaded
        long before = scripts(name);
        long[] counts = contend(clients, 0, name, 3_200);
        long acquisitions = Arrays.stream(counts).sum();
        double perAcquisition = (double) (scripts(name) - before) / acquisitions;
        assertTrue(perAcquisition <= 2.5, String.format("%.2f scripts per write acquisition at %d processes on %s (at"
                + " most 2.5: one release, one acquire, a little more for places renewed and turns passed)",
                perAcquisition, PROCESSES, topology));
    }

    @Test
    void noWritingProcessIsStarved(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        contend(clients, 0, name, 200);
        long[] counts = contend(clients, 0, name, 3_200);
        double mean = Arrays.stream(counts).average().orElseThrow();
        long least = Arrays.stream(counts).min().orElseThrow();
        assertTrue(least >= 0.3 * mean, "the least served process got " + least + " of a mean " + mean + ": "
                + Arrays.toString(counts));
    }

    @Test
    void readersOfSeveralProcessesEnterBetweenTheWritersTurns(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        long[] counts = contend(clients, 4, name, 400);   // readers that never pause keep writers waiting
        assertTrue(Arrays.stream(counts).allMatch(c -> c > 0), "every writing process served: "
                + Arrays.toString(counts));
    }

    @Test
    void aFreeLockKeptForAnotherProcesssTurnHoldsBackWritersButNotReaders(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        HaspReadWriteLock lock = lock(clients.get(0), name);
        HaspReadWriteLock turnsOwn = lock(clients.get(1), name);
        String turn = "hasp_rwlock_turn:{" + name + "}";
        // The turn of a process that was told and has not tried yet (here: the second client's).
        servers.call(name, "SET", turn, clients.get(1).id(), "PX", "10000");
        assertFalse(RwTesting.get(lock.writeLock().tryLockAsync(lock.writeLock().owner(2))),
                "a writer of another process leaves the free lock to the turn");
        LockOwner writer = turnsOwn.writeLock().owner(3);
        assertTrue(RwTesting.get(turnsOwn.writeLock().tryLockAsync(writer)), "a writer of the turn's process takes it");
        assertEquals(0L, servers.call(name, "EXISTS", turn), "and uses the turn up");
        RwTesting.get(turnsOwn.writeLock().unlockAsync(writer));
        // Readers take no place in line, so a process whose waiters only read never gets a turn: they are not
        // held back by one, and enter as they did before writers took turns.
        servers.call(name, "SET", turn, clients.get(1).id(), "PX", "10000");
        LockOwner reader = lock.readLock().owner(1);
        assertTrue(RwTesting.get(lock.readLock().tryLockAsync(reader)), "a reader of another process enters");
        RwTesting.get(lock.readLock().unlockAsync(reader));
    }

    @Test
    void readersOfProcessesThatDoNotWriteAreServedWhileWritersTakeTurns(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        // Four processes write, four others only read: every reader gets in while the writers keep the line busy.
        List<HaspClient> writers = clients.subList(0, 4);
        List<HaspClient> readers = clients.subList(4, 8);
        long[] counts = HotContention.run(writers.stream().map(client -> lock(client, name).writeLock()).toList(),
                readers.stream().map(client -> lock(client, name).readLock()).toList(), 400);
        assertTrue(Arrays.stream(counts).allMatch(c -> c > 0), "every writing process served: "
                + Arrays.toString(counts));
    }

    @Test
    void aProcessClosedWhileItWaitsForTheWriteLockDoesNotHoldTheOthersUp(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        HaspClient leaving = RwTesting.client(servers.uri(), Duration.ofSeconds(30));
        HaspLock held = lock(clients.get(0), name).writeLock();
        held.lock();
        CompletableFuture<Void> waiting;
        try {
            HaspLock theirs = lock(leaving, name).writeLock();
            waiting = theirs.lockAsync(theirs.owner(1));
            RwTesting.until(RwTesting.DEADLINE, "the leaving process stands in line",
                    () -> servers.subscribers("hasp_rwlock_turn__channel:{" + name + "}:" + leaving.id()) == 1);
            leaving.close();
        } finally {
            held.unlock();
        }
        assertTrue(waiting.isCompletedExceptionally(), "the closed client's wait ended");
        long[] counts = contend(clients.subList(1, 5), 2, name, 400);
        assertTrue(Arrays.stream(counts).sum() >= 400 && Arrays.stream(counts).allMatch(c -> c > 0),
                "the others went on, each served: " + Arrays.toString(counts));
    }
}
