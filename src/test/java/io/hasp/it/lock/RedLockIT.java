package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.millis;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.QuorumException;
import io.hasp.lock.RedLock;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * RedLock over three independent redis-servers, started once for the class: it works with all up and
 * with one stopped, fails at once with a clear error (nothing left held) with two stopped, signals
 * the hold lost once masters restarted empty leave fewer than a quorum holding it, and keeps a
 * second holder out.
 */
class RedLockIT {

    private static final Duration SLACK = Duration.ofSeconds(30);

    private static final List<RedisServer> servers = new ArrayList<>();
    private static final List<HaspClient> clients = new ArrayList<>();
    private static final List<HaspClient> others = new ArrayList<>();
    private static final List<HaspClient> shortWatchdog = new ArrayList<>();

    private String name;

    @BeforeAll
    static void start() {
        for (int i = 0; i < 3; i++) {
            RedisServer server = RedisServer.builder().name("redlock-" + i).start();
            servers.add(server);
            clients.add(Clients.hasp(server.uri(), seconds(30), seconds(2)));
            others.add(Clients.hasp(server.uri(), seconds(30), seconds(2)));
            shortWatchdog.add(Clients.hasp(server.uri(), seconds(3), seconds(2)));
        }
    }

    @AfterAll
    static void stop() {
        for (List<HaspClient> group : List.of(clients, others, shortWatchdog)) {
            group.forEach(HaspClient::close);
        }
        servers.forEach(RedisServer::close);
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "redlock:" + test.getTestMethod().orElseThrow().getName();
    }

    /** Every test leaves the three servers running. */
    @AfterEach
    void allUp() throws InterruptedException {
        for (RedisServer server : servers) {
            if (!server.isRunning()) {
                server.restart();
            }
        }
        List<HaspClient> every = new ArrayList<>(clients);
        every.addAll(others);
        every.addAll(shortWatchdog);
        for (HaspClient client : every) {   // each reconnects on its own backoff
            await("the client is back", SLACK, () -> {
                try {
                    return "PONG".equals(client.commands().ping().get(5, TimeUnit.SECONDS));
                } catch (Exception e) {
                    return false;
                }
            });
        }
    }

    private long existsOn(int server) {
        try (RedisProbe probe = RedisProbe.connect(servers.get(server).port())) {
            return (Long) probe.call("EXISTS", name);
        }
    }

    /**
     * Locks {@code lock} with all three masters granting it. A master whose reply misses its share of the
     * lease (a stalled machine) leaves a RedLock held by two; such a hold is given back and taken again.
     */
    private void lockOnAllThree(RedLock lock) {
        for (int attempt = 1; ; attempt++) {
            lock.lock();
            if (existsOn(0) + existsOn(1) + existsOn(2) == 3) {
                return;
            }
            lock.unlock();
            assertTrue(attempt < 5, "five tries, each granted by fewer than three masters");
        }
    }

    @Test
    void withEveryMasterUpItIsHeldOnAllAndReleasedOnAll() throws Exception {
        RedLock lock = RedLock.of(name, clients);
        assertEquals(2, lock.quorum());
        assertTrue(lock.tryLock(SLACK, seconds(10)));
        for (int i = 0; i < 3; i++) {
            assertEquals(1L, existsOn(i), "held on master " + i);
        }
        lock.unlock();
        for (int i = 0; i < 3; i++) {
            assertEquals(0L, existsOn(i), "released on master " + i);
        }
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void withOneMasterStoppedAQuorumStillHoldsIt() throws Exception {
        servers.get(2).kill();
        RedLock lock = RedLock.of(name, clients);
        assertTrue(lock.tryLock(SLACK, seconds(10)), "two of three grant it");
        assertEquals(1L, existsOn(0));
        assertEquals(1L, existsOn(1));
        lock.unlock();
        assertEquals(0L, existsOn(0));
        assertEquals(0L, existsOn(1));
    }

    @Test
    void withTwoMastersStoppedItFailsAtOnceAndLeavesNothingOnTheSurvivor() throws Exception {
        servers.get(1).kill();
        servers.get(2).kill();
        RedLock lock = RedLock.of(name, clients);
        int heldBefore = clients.get(0).heldLocks();
        CompletableFuture<Boolean> trying = lock.tryLockAsync(Duration.ofMinutes(5), seconds(10), 1);
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> trying.get(SLACK.toSeconds(), TimeUnit.SECONDS), "fails well before its 5 minute wait");
        QuorumException quorum = assertInstanceOf(QuorumException.class, failed.getCause());
        assertEquals(1, quorum.answered());
        assertEquals(3, quorum.masters());
        assertEquals(2, quorum.quorum());
        assertEquals(0L, existsOn(0), "nothing left held on the survivor");
        assertEquals(heldBefore, clients.get(0).heldLocks(), "and no hold left in the survivor's client");
    }

    @Test
    void aHolderKeepsASecondHolderOutAndNothingOfTheSecondStays() throws Exception {
        RedLock first = RedLock.of(name, clients);
        RedLock second = RedLock.of(name, others);
        assertTrue(first.tryLock(SLACK, seconds(10)));
        assertFalse(second.tryLockAsync(millis(300), seconds(10), 1).get(SLACK.toSeconds(), TimeUnit.SECONDS));
        for (HaspClient other : others) {
            assertEquals(0, other.heldLocks(), "the second holder gave back every master it got");
        }
        first.unlock();
        assertTrue(second.tryLockAsync(SLACK, seconds(10), 1).get(SLACK.toSeconds(), TimeUnit.SECONDS));
        second.unlockAsync(1).get(SLACK.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void mastersRestartedEmptySignalTheLossOnceFewerThanAQuorumHoldIt() throws Exception {
        RedLock lock = RedLock.of(name, shortWatchdog);
        lockOnAllThree(lock);
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        CompletableFuture<HoldEnd> firstMaster = lock.locks().get(0).holdEnd();
        servers.get(0).kill();
        servers.get(0).restart();
        assertEquals(0L, existsOn(0), "the master came back empty");
        assertEquals(HoldEnd.LOST, firstMaster.get(SLACK.toSeconds(), TimeUnit.SECONDS), "its renewal found it gone");
        assertFalse(end.isDone(), "two of three still hold it");
        servers.get(1).kill();
        servers.get(1).restart();
        assertEquals(HoldEnd.LOST, end.get(SLACK.toSeconds(), TimeUnit.SECONDS), "one of three: the quorum is lost");
        await("the last master's hold is released at the loss", SLACK, () -> existsOn(2) == 0);
        assertThrows(HoldLostException.class, lock::unlock);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RedLock.of(name, clients.get(0), clients.get(1)));
        assertThrows(IllegalArgumentException.class,
                () -> RedLock.of(name, clients.get(0), clients.get(1), clients.get(1)));
        assertThrows(IllegalArgumentException.class, () -> RedLock.of("", clients));
        RedLock lock = RedLock.of(name, clients);
        assertThrows(IllegalArgumentException.class, () -> lock.tryLockAsync(Duration.ofSeconds(-1), seconds(1), 1));
        assertEquals("RedLock[" + name + ", 3 masters, quorum 2]", lock.toString());
    }

    @Test
    void aHoldTakenThroughOneViewIsReleasedThroughAnotherAndIsNotReentrant() throws Exception {
        RedLock.of(name, clients).lock();
        assertThrows(IllegalMonitorStateException.class, () -> RedLock.of(name, clients).tryLock(),
                "the same holder asking again through a new view");
        RedLock.of(name, clients).unlock();
        for (int i = 0; i < 3; i++) {
            assertEquals(0L, existsOn(i));
        }
    }

    @Test
    void aHoldWhoseLeasesRunOutEndsAsLostAndTheHolderMayLockAgain() throws Exception {
        RedLock lock = RedLock.of(name, shortWatchdog);   // its sweep notices an expired lease within 1 s
        assertTrue(lock.tryLock(SLACK, seconds(2)));   // 200 ms for each master to answer
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        end.cancel(false);  // the caller's copy: cancelling it changes nothing for the hold
        assertEquals(HoldEnd.LOST, lock.holdEnd().get(SLACK.toSeconds(), TimeUnit.SECONDS),
                "every master's lease ran out");
        assertThrows(HoldLostException.class, lock::unlock);
        assertTrue(lock.tryLock(SLACK, seconds(10)), "the lost hold does not block the holder");
        lock.unlock();
    }

    @Test
    void aMasterThatStopsAnsweringCostsARoundATenthOfTheLeaseNotItsCommandTimeout() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(servers.get(2).port());
                HaspClient slow = Clients.hasp(proxy.uri(), seconds(30), seconds(60))) {
            List<HaspClient> masters = List.of(clients.get(0), clients.get(1), slow);
            proxy.blackhole(true);   // sockets open, nothing comes back
            RedLock lock = RedLock.of(name, masters);
            assertTrue(lock.tryLock(SLACK, seconds(5)),
                    "two answering masters grant it; the third is given up on after 500 ms, not 60 s");
            lock.unlock();
            proxy.blackhole(false);
        }
        assertEquals(0L, existsOn(0));
        assertEquals(0L, existsOn(1));
        await("the late grant on the third master is given back or expires", SLACK, () -> existsOn(2) == 0);
    }
}
