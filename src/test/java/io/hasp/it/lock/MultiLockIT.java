package io.hasp.it.lock;

import static io.hasp.it.lock.Clients.await;
import static io.hasp.it.lock.Clients.millis;
import static io.hasp.it.lock.Clients.seconds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.Replies;
import io.hasp.lock.HaspLock;
import io.hasp.lock.MultiLock;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The multi-lock against real servers: all or none, one order whatever order the locks are given in,
 * release in reverse, the shared wait, and partial acquisitions given back on a timeout, a cancel,
 * a caller's own timeout and an interrupt; and two JVMs taking overlapping names in opposite orders
 * under load, with no deadlock and nothing left held.
 */
@ExtendWith(RedisServerExtension.class)
class MultiLockIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    private static HaspClient one;
    private static HaspClient two;
    private static RedisServer secondServer;
    private static HaspClient elsewhere;
    private static RedisProbe probe;
    private static RedisProbe secondProbe;

    private String a;
    private String b;
    private String c;

    @BeforeAll
    static void start(RedisServer server) {
        one = Clients.hasp(server.uri(), seconds(30));
        two = Clients.hasp(server.uri(), seconds(30));
        secondServer = RedisServer.builder().name("multi-second").start();
        elsewhere = Clients.hasp(secondServer.uri(), seconds(30));
        probe = RedisProbe.connect(server.port());
        secondProbe = RedisProbe.connect(secondServer.port());
    }

    @AfterAll
    static void stop() {
        one.close();
        two.close();
        elsewhere.close();
        probe.close();
        secondProbe.close();
        secondServer.close();
    }

    @BeforeEach
    void names(TestInfo test) {
        String prefix = "multi:" + test.getTestMethod().orElseThrow().getName() + ":";
        a = prefix + "a";
        b = prefix + "b";
        c = prefix + "c";
    }

    private boolean exists(String name) {
        return (Long) probe.call("EXISTS", name) == 1;
    }

    @Test
    void theLocksAreTakenInTheOrderOfTheirNamesAndEachNameOnce() {
        MultiLock multi = MultiLock.of(one.getLock(c), one.getLock(a), one.getLock(b));
        assertEquals(List.of(a, b, c), multi.locks().stream().map(HaspLock::getName).toList());
        assertThrows(IllegalArgumentException.class, () -> MultiLock.of(one.getLock(a), two.getLock(a)));
        assertThrows(IllegalArgumentException.class, () -> MultiLock.of(List.of()));
        assertThrows(IllegalArgumentException.class, () -> MultiLock.of(one.getLock(a), null));
        assertThrows(IllegalArgumentException.class, () -> multi.tryLock(Duration.ofSeconds(-1), seconds(1)));
    }

    @Test
    void allOrNoneAndUnlockReleasesEveryMember() throws Exception {
        two.getLock(b).lock(seconds(30));
        MultiLock multi = MultiLock.of(one.getLock(a), one.getLock(b), one.getLock(c));
        assertFalse(multi.tryLock(millis(200), seconds(10)), "b is held elsewhere");
        assertFalse(exists(a), "a, taken before b, was given back");
        assertFalse(exists(c));
        two.getLock(b).unlock();
        assertTrue(multi.tryLock(SLACK, seconds(10)));
        assertTrue(multi.isHeldByCurrentThread());
        assertTrue(exists(a) && exists(b) && exists(c));
        multi.unlock();
        assertFalse(exists(a) || exists(b) || exists(c));
        assertThrows(IllegalMonitorStateException.class, multi::unlock, "nothing held any more");
    }

    @Test
    void oneWaitIsSharedByTheMembers() throws Exception {
        HaspLock expiring = one.getLock(a);
        expiring.lock(millis(400));   // frees itself after its lease
        MultiLock multi = MultiLock.of(two.getLock(a), two.getLock(b));
        assertTrue(multi.tryLock(SLACK, seconds(10)), "a came free within the wait");
        multi.unlock();
        // its lease ran out (HoldLostException, or not held once the sweep ended it); either way no hold record stays
        assertThrows(IllegalMonitorStateException.class, expiring::unlock);
        await("no hold left in the client", SLACK, () -> one.heldLocks() == 0);
    }

    @Test
    void membersOnTwoServersAreHeldTogether() throws Exception {
        MultiLock multi = MultiLock.of(one.getLock(a), elsewhere.getLock(b));
        multi.lock();
        assertTrue(exists(a));
        assertEquals(1L, secondProbe.call("EXISTS", b));
        assertEquals(0L, probe.call("EXISTS", b), "b lives on the second server");
        multi.unlock();
        assertEquals(0L, secondProbe.call("EXISTS", b));
        assertFalse(exists(a));
    }

    @Test
    void aCancelledOrTimedOutAsyncAttemptGivesBackWhatItTook() throws Exception {
        two.getLock(b).lock(seconds(30));
        MultiLock multi = MultiLock.of(one.getLock(a), one.getLock(b));
        CompletableFuture<Boolean> trying = multi.tryLockAsync(SLACK, seconds(10), 5);
        await("a is taken, b is awaited", SLACK, () -> exists(a));
        assertTrue(trying.cancel(false));
        await("a is given back", SLACK, () -> !exists(a));
        CompletableFuture<Void> locking = multi.lockAsync(6);
        await("a is taken again", SLACK, () -> exists(a));
        locking.orTimeout(1, TimeUnit.MILLISECONDS);
        await("the caller's own timeout gives it back too", SLACK, () -> !exists(a));
        two.getLock(b).unlock();
        await("no hold left in the client", SLACK, () -> one.heldLocks() == 0);
    }

    @Test
    void anInterruptedBlockedCallerLeavesNothingHeld() throws Exception {
        two.getLock(b).lock(seconds(30));
        MultiLock multi = MultiLock.of(one.getLock(a), one.getLock(b));
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                multi.lockInterruptibly();
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        }, "multi-caller");
        caller.start();
        try {
            await("a is taken, b is awaited", SLACK, () -> exists(a));
            caller.interrupt();
            assertInstanceOf(InterruptedException.class, ended.get(SLACK.toSeconds(), TimeUnit.SECONDS));
            await("a is given back", SLACK, () -> !exists(a));
        } finally {
            caller.interrupt();
            caller.join(SLACK.toMillis());
            two.getLock(b).unlock();
        }
        await("no hold left in the client", SLACK, () -> one.heldLocks() == 0);
    }

    @Test
    void aFailingMemberFailsTheCallAndReleasesTheOthers() throws Exception {
        MultiLock multi = MultiLock.of(one.getLock(a), one.getLock(b));
        probe.call("SET", b, "not a lock");   // the lock script fails on a key of the wrong type
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> multi.tryLockAsync(SLACK, seconds(10), 9).get(SLACK.toSeconds(), TimeUnit.SECONDS));
        assertNotNull(failed.getCause());
        await("a is given back", SLACK, () -> !exists(a));
        probe.call("DEL", b);
    }

    @Test
    void twoJvmsTakingOverlappingNamesInOppositeOrdersNeitherDeadlockNorLoseAnUpdate(RedisServer server)
            throws Exception {
        String d = a.replace(":a", ":d");
        int threads = 4;
        int rounds = 300;
        String go = a.replace(":a", ":go");
        try (ChildJvm child = ChildJvm.start(ChildJvm.currentJava(), MultiLockWorker.class, server.uri(),
                String.join(",", d, c, b), Integer.toString(threads), Integer.toString(rounds), go)) {
            assertNotNull(child.awaitLine("READY", Duration.ofMinutes(1)), child.output());
            probe.call("RPUSH", go, "go");   // both JVMs start at once
            int here = MultiLockWorker.run(one, List.of(a, b, c), threads, rounds);
            String line = child.awaitLine("DONE ", Duration.ofMinutes(5));
            assertNotNull(line, "the other JVM did not finish (a deadlock?); its output:\n" + child.output());
            assertEquals(0, child.awaitExit(Duration.ofSeconds(30)), child.output());
            int there = Integer.parseInt(line.substring("DONE ".length()));
            assertEquals(threads * rounds, here);
            assertEquals(threads * rounds, there);
        }
        int both = 2 * threads * rounds;
        assertEquals(Integer.toString(threads * rounds), probe.call("GET", "count:" + a));
        assertEquals(Integer.toString(both), probe.call("GET", "count:" + b), "b and c are taken by both JVMs");
        assertEquals(Integer.toString(both), probe.call("GET", "count:" + c));
        assertEquals(Integer.toString(threads * rounds), probe.call("GET", "count:" + d));
        for (String name : List.of(a, b, c, d)) {
            assertFalse(exists(name), name + " is left held");
        }
    }

    @Test
    void aBlockingCallOnAClientThreadIsRefusedBeforeAnythingIsTaken() throws Exception {
        MultiLock multi = MultiLock.of(one.getLock(a), one.getLock(b));
        // the callback is attached before the reply exists (the list is pushed only afterwards, from another
        // connection), so it runs on the client's event loop, never on this thread
        String list = a.replace(":a", ":signal");
        CompletableFuture<Throwable> inCallback = one.commands().execute(Replies.VOID, "BLPOP", list, "30").handle((nil, error) -> {
            try {
                multi.tryLock();
                return null;
            } catch (RuntimeException e) {
                return (Throwable) e;
            }
        });
        probe.call("RPUSH", list, "go");
        Throwable refused = inCallback.get(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertInstanceOf(IllegalStateException.class, refused);
        assertFalse(exists(a), "nothing was sent");
        assertEquals(0, one.heldLocks());
    }
}
