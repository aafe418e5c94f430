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
import io.hasp.internal.ClientInternals;
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
 * second holder out. With one master killed and another late (its replies held back by a fault proxy),
 * the late one fails a round, not the call: the wait is used to try again, and when the wait ends the error
 * says what each master did. An unlock returns once a quorum released the lock, without waiting out a
 * master that is down or does not answer.
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

    /** Waits until master {@code index}'s client has noticed that its connection is down. */
    private void awaitKnownDown(HaspClient client) throws InterruptedException {
        await("the client sees its master down", SLACK, () -> ClientInternals.knownDown(client, name));
    }

    @Test
    void aMasterAnsweringLateFailsARoundNotTheCallAndTheWaitIsUsedToTryAgain() throws Exception {
        servers.get(0).kill();
        awaitKnownDown(clients.get(0));
        try (TcpProxy proxy = TcpProxy.start(servers.get(2).port());
                HaspClient late = Clients.hasp(proxy.uri(), seconds(30), seconds(10))) {
            RedLock lock = RedLock.of(name, List.of(clients.get(0), clients.get(1), late));
            proxy.delay(millis(500));   // master 2's replies come 500 ms late: a round allows 200 ms (a 2 s lease)
            CompletableFuture<Boolean> trying = lock.tryLockAsync(SLACK, seconds(2), 1);
            await("master 2 granted a try", SLACK, () -> existsOn(2) == 1);
            await("its late grant was given back once its reply came", SLACK, () -> existsOn(2) == 0);
            assertFalse(trying.isDone(), "still trying: a late master failed a round, not the call");
            proxy.delay(Duration.ZERO);
            assertTrue(trying.get(SLACK.toSeconds(), TimeUnit.SECONDS), "held by masters 1 and 2 once 2 answers in time");
            assertEquals(1L, existsOn(1));
            assertEquals(1L, existsOn(2));
            lock.unlockAsync(1).get(SLACK.toSeconds(), TimeUnit.SECONDS);
            assertEquals(0L, existsOn(1));
            assertEquals(0L, existsOn(2));
            assertEquals(0, late.heldLocks(), "nothing of the late tries is left in the late master's client");
            assertEquals(0, clients.get(1).heldLocks());
        }
    }

    @Test
    void whenTheWaitEndsWithTooFewAnswersInTimeTheErrorSaysWhatEachMasterDid() throws Exception {
        servers.get(0).kill();
        awaitKnownDown(clients.get(0));
        try (TcpProxy proxy = TcpProxy.start(servers.get(2).port());
                HaspClient stalled = Clients.hasp(proxy.uri(), seconds(30), seconds(10))) {
            RedLock lock = RedLock.of(name, List.of(clients.get(0), clients.get(1), stalled));
            proxy.blackhole(true);
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> lock.tryLockAsync(seconds(1), seconds(2), 1).get(SLACK.toSeconds(), TimeUnit.SECONDS));
            QuorumException quorum = assertInstanceOf(QuorumException.class, failed.getCause());
            String message = quorum.getMessage();
            assertEquals(1, quorum.answered(), message);
            assertTrue(message.contains("answered in time when last asked within the wait"), message);
            assertTrue(message.contains("master 0 (redis://127.0.0.1:" + servers.get(0).port() + "): down"), message);
            assertTrue(message.contains("master 2 (" + proxy.uri() + "): no answer"), message);
            assertTrue(message.contains("ms allowed"), message);
            assertEquals(0L, existsOn(1), "nothing left held on the master that answered");
            proxy.blackhole(false);
            await("the stalled master's grant is given back once it answers", SLACK, () -> existsOn(2) == 0);
        }
    }

    @Test
    void anUnlockWithAMasterDownReturnsOnceAQuorumReleasedIt() throws Exception {
        RedLock lock = RedLock.of(name, clients);
        lockOnAllThree(lock);
        servers.get(2).kill();
        awaitKnownDown(clients.get(2));
        lock.unlock();   // the two masters that answer release it; the third's hold ends with its lease
        assertEquals(0L, existsOn(0));
        assertEquals(0L, existsOn(1));
        assertEquals(HoldEnd.RELEASED, lock.holdEnd().get(SLACK.toSeconds(), TimeUnit.SECONDS));
        assertTrue(lock.tryLock(SLACK, seconds(10)), "the holder may take it again, from the two masters up");
        lock.unlock();
    }

    @Test
    void anUnlockDoesNotWaitOutAMasterThatStopsAnswering() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(servers.get(2).port());
                HaspClient stalled = Clients.hasp(proxy.uri(), seconds(30), seconds(60))) {
            RedLock lock = RedLock.of(name, List.of(clients.get(0), clients.get(1), stalled));
            for (int attempt = 1; ; attempt++) {   // held on all three, as lockOnAllThree does
                assertTrue(lock.tryLockAsync(SLACK, seconds(30), 1).get(SLACK.toSeconds(), TimeUnit.SECONDS));
                if (existsOn(0) + existsOn(1) + existsOn(2) == 3) {
                    break;
                }
                lock.unlockAsync(1).get(SLACK.toSeconds(), TimeUnit.SECONDS);
                assertTrue(attempt < 5, "five tries, each granted by fewer than three masters");
            }
            proxy.blackhole(true);
            CompletableFuture<Void> unlocking = lock.unlockAsync(1);
            // Within a round's time (1 s for a 30 s lease), not the unlock's retry budget (twice the 60 s command timeout).
            unlocking.get(SLACK.toSeconds(), TimeUnit.SECONDS);
            assertEquals(0L, existsOn(0));
            assertEquals(0L, existsOn(1));
            proxy.blackhole(false);
            await("the stalled master's unlock applies once it answers", SLACK, () -> existsOn(2) == 0);
        }
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
