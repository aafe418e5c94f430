package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.it.HotContention;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One hot lock shared by many processes, each a client of its own (its own connections and subscription, as a
 * process has), one thread each: a release gives the lock to the heir of the next waiting process and tells only that
 * process, so the server runs about one script per acquisition however many processes wait, and every process is
 * served in its turn.
 * On one server, a local Redis Cluster (sharded channels) and behind Sentinel. On a Redis 6 cluster, whose classic
 * channels reach listeners through other nodes, a publish cannot tell whether a process listens, so the processes
 * take no turns there: each test then checks that the lock works as before, its line never used.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class HotLockIT {

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
            clients.add(Clients.hasp(servers.uri(), seconds(30)));
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
        return "hot:" + test.getTestMethod().orElseThrow().getName();
    }

    private long scripts(String name) {
        return HotContention.scripts(servers, name);
    }

    /**
     * One thread per client of {@code contenders} takes the lock, increments a plain counter and unlocks, until
     * {@code total} acquisitions are done; returns each client's acquisitions. Fails on a lost update.
     */
    private static long[] contend(List<HaspClient> contenders, String name, int total) throws Exception {
        return HotContention.run(contenders.stream().map(client -> client.getLock(name)).toList(), List.of(), total);
    }

    /** Where processes take no turns: the lock's line is never used, and a contended run stays exact. */
    private boolean checkedWithoutTurns(String name) throws Exception {
        if (servers.publishCountsListeners()) {
            return false;
        }
        contend(clients, name, 400);
        assertEquals(0L, servers.call(name, "EXISTS", "hasp_lock_line:{" + name + "}"), "nobody stood in line");
        assertEquals(0L, servers.call(name, "EXISTS", "hasp_lock_turn:{" + name + "}"), "no turn was given");
        return true;
    }

    @Test
    void sixteenProcessesRunAtMostOneAndAHalfScriptsPerAcquisition(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        contend(clients, name, 200);   // every client subscribed, the scripts loaded
        long before = scripts(name);
        long[] counts = contend(clients, name, 3_200);
        long acquisitions = Arrays.stream(counts).sum();
        double perAcquisition = (double) (scripts(name) - before) / acquisitions;
        assertTrue(perAcquisition <= 1.5, String.format("%.2f scripts per acquisition at %d processes on %s (at most"
                + " 1.5: one release, which grants the lock to the next process's heir, a little more for places"
                + " renewed and grants given back)", perAcquisition, PROCESSES, topology));
    }

    @Test
    void noProcessIsStarved(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        contend(clients, name, 200);
        long[] counts = contend(clients, name, 3_200);
        double mean = Arrays.stream(counts).average().orElseThrow();
        long least = Arrays.stream(counts).min().orElseThrow();
        assertTrue(least >= 0.3 * mean, "the least served process got " + least + " of a mean " + mean + ": "
                + Arrays.toString(counts));
    }

    @Test
    void aProcessClosedWhileItWaitsDoesNotHoldTheOthersUp(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        HaspClient leaving = Clients.hasp(servers.uri(), seconds(30));
        HaspLock held = clients.get(0).getLock(name);
        held.lock();
        CompletableFuture<Void> waiting;
        try {
            // The leaving process waits in line (first), then closes without ever taking the lock.
            HaspLock theirs = leaving.getLock(name);
            waiting = theirs.lockAsync(theirs.owner(1));
            Clients.await("the leaving process stands in line", seconds(10),
                    () -> servers.subscribers("hasp_lock_turn__channel:{" + name + "}:" + leaving.id()) == 1);
            leaving.close();
        } finally {
            held.unlock();
        }
        assertTrue(waiting.isCompletedExceptionally(), "the closed client's wait ended");
        long[] counts = contend(clients.subList(1, 5), name, 400);
        assertTrue(Arrays.stream(counts).sum() >= 400 && Arrays.stream(counts).allMatch(c -> c > 0),
                "the others went on, each served: " + Arrays.toString(counts));
    }

    @Test
    void aTurnThatComesBackToAProcessWithNobodyWaitingGoesOnToTheNext(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        HaspClient releasing = clients.get(0);
        HaspClient next = clients.get(1);
        HaspLock lock = releasing.getLock(name);
        HaspLock theirs = next.getLock(name);
        String releasingTurns = "hasp_lock_turn__channel:{" + name + "}:" + releasing.id();
        LockOwner holder = lock.owner(1);
        assertTrue(lock.tryLockAsync(holder).get(10, TimeUnit.SECONDS));
        // The releasing process stands in line (a waiter of its own, which then gives up), and its waiters'
        // channel closes once it lingered; its place in line stays (for 5 s).
        CompletableFuture<Void> gaveUp = lock.lockAsync(lock.owner(2));
        Clients.await("the releasing process stands in line", seconds(10),
                () -> servers.subscribers(releasingTurns) == 1);
        gaveUp.cancel(false);
        Clients.await("its waiters' channel closed", seconds(10), () -> servers.subscribers(releasingTurns) == 0);
        // Another process waits in line behind it, parked for its turn (up to 1.7 s before it looks again).
        CompletableFuture<Void> waiting = theirs.lockAsync(theirs.owner(3));
        Clients.await("the next process stands in line", seconds(10), () -> servers.subscribers(
                "hasp_lock_turn__channel:{" + name + "}:" + next.id()) == 1);
        lock.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        // The turn came back to the releasing process, which has nobody to take it: it passes it on at once.
        Clients.await("the next process took its turn", seconds(1), waiting::isDone);
        theirs.unlockAsync(theirs.owner(3)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aGrantToAnOwnerThatStoppedWaitingGoesToAnotherWaiterOfItsProcessAtOnce(TestInfo test) throws Exception {
        String name = name(test);
        if (checkedWithoutTurns(name)) {
            return;
        }
        HaspLock holding = clients.get(0).getLock(name);
        HaspLock gaveUp = clients.get(1).getLock(name);
        HaspLock next = clients.get(2).getLock(name);
        String gaveUpTurns = "hasp_lock_turn__channel:{" + name + "}:" + clients.get(1).id();
        String nextTurns = "hasp_lock_turn__channel:{" + name + "}:" + clients.get(2).id();
        LockOwner holder = holding.owner(1);
        assertTrue(holding.tryLockAsync(holder).get(10, TimeUnit.SECONDS));
        // In the second process one owner waits on, another names itself the process's heir and then gives up.
        CompletableFuture<Void> stays = gaveUp.lockAsync(gaveUp.owner(2));
        Clients.await("the second process stands in line", seconds(10), () -> servers.subscribers(gaveUpTurns) == 1);
        Clients.await("its first waiter is its heir", seconds(10), () -> heirIs(name, clients.get(1), gaveUp.owner(2)));
        CompletableFuture<Void> cancelled = gaveUp.lockAsync(gaveUp.owner(3));
        Clients.await("its second waiter is its heir", seconds(10), () -> heirIs(name, clients.get(1), gaveUp.owner(3)));
        cancelled.cancel(false);
        CompletableFuture<Void> waiting = next.lockAsync(next.owner(4));
        Clients.await("the third process stands in line", seconds(10), () -> servers.subscribers(nextTurns) == 1);
        holding.unlockAsync(holder).get(10, TimeUnit.SECONDS);
        // The lock went to the owner that gave up; its process hands it to its other waiter, well within the
        // grant's lease (30 s), and the third process is served next.
        Clients.await("the second process's other waiter holds the lock", seconds(5), stays::isDone);
        stays.get();
        assertTrue(!waiting.isDone(), "the third process waits for its turn");
        gaveUp.unlockAsync(gaveUp.owner(2)).get(10, TimeUnit.SECONDS);
        Clients.await("the third process holds the lock", seconds(5), waiting::isDone);
        waiting.get();
        next.unlockAsync(next.owner(4)).get(10, TimeUnit.SECONDS);
    }

    private boolean heirIs(String name, HaspClient process, LockOwner owner) {
        Object heir = servers.call(name, "GET", "hasp_lock_line_place:{" + name + "}:" + process.id());
        return heir != null && heir.toString().endsWith(":" + owner.field());
    }
}
