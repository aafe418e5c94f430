package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.RedisTimeoutException;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.lock.CallerWaits;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TcpProxy;
import io.hasp.testing.WithRedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Blocking lock calls on direct connections: the caller's own thread writes the script and reads the reply.
 * The server asks for a password and the clients use database 3, so every direct connection's handshake
 * (AUTH or HELLO, SETNAME, SELECT) is checked by the commands landing where they should.
 */
@WithRedisServer(options = {"requirepass " + DirectConnectionsIT.PASSWORD})
class DirectConnectionsIT {

    static final String PASSWORD = "direct-secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Script ECHO = Script.of("direct_echo", "return ARGV[1]");

    private static HaspConfig.Builder config(int port, String name) {
        return HaspConfig.builder().uri("redis://:" + PASSWORD + "@127.0.0.1:" + port + "/3").clientName(name)
                .commandTimeout(TIMEOUT).reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(200), 0.2);
    }

    private static RedisProbe probe(RedisServer redis) {
        RedisProbe probe = RedisProbe.connect(redis.port());
        probe.call("AUTH", PASSWORD);
        return probe;
    }

    /** The server's connections named {@code name}, from {@code CLIENT LIST}. */
    private static long connectionsNamed(RedisServer redis, String name) {
        try (RedisProbe probe = probe(redis)) {
            return ((String) probe.call("CLIENT", "LIST")).lines().filter(l -> l.contains(" name=" + name + " ")).count();
        }
    }

    /** Sends {@code ECHO(value)} as a blocking lock call's thread sends its scripts. */
    private static CompletableFuture<String> echoAsBlockingCaller(HaspClient client, String value) {
        boolean outer = CallerWaits.enter();
        try {
            return client.commands().evalsha(ECHO, Replies.STRING, List.of(), value);
        } finally {
            CallerWaits.exit(outer);
        }
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void aBlockingLockAndUnlockRunTheirScriptsOnOneDirectConnection(HaspConfig.Protocol protocol, RedisServer redis)
            throws Exception {
        String name = "direct-on-" + protocol;
        try (HaspClient client = HaspClient.create(config(redis.port(), name).protocol(protocol).build());
                HaspClient without = HaspClient.create(config(redis.port(), "direct-off-" + protocol)
                        .protocol(protocol).directConnections(0).build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            HaspLock lock = client.getLock("direct:" + protocol);
            lock.lock();
            try (RedisProbe probe = probe(redis)) {   // taken in database 3, which the direct connection selected
                probe.call("SELECT", "3");
                assertEquals(1L, probe.call("EXISTS", "direct:" + protocol));
            }
            assertTrue(lock.isHeldByCurrentThread());
            lock.unlock();
            assertFalse(lock.isLocked());
            assertEquals(2, direct.calls(), "the lock's and the unlock's script");
            assertEquals(1, direct.openConnections());

            HaspLock plain = without.getLock("direct:off:" + protocol);
            plain.lock();
            plain.unlock();
            assertNull(ClientInternals.directConnections(without));
            // One server connection more than the same client without the direct path (the direct one is used
            // again right before each count: an idle one closes after 5 s, which a stalled machine may reach).
            long plainConnections = connectionsNamed(redis, "direct-off-" + protocol);
            assertTrue(Conditions.await(Duration.ofSeconds(20), () -> {
                echoAsBlockingCaller(client, "count");
                return connectionsNamed(redis, name) == plainConnections + 1;
            }), "the direct connection is one more client connection on the server");
        }
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> connectionsNamed(redis, name) == 0),
                "close() leaves no connection of the client on the server");
    }

    @Test
    void asyncCallsAndOtherThreadsStayOnTheMultiplexedConnections(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.port(), "direct-async").build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            HaspLock lock = client.getLock("direct:async");
            LockOwner owner = lock.owner(7);
            lock.lockAsync(owner).get(10, TimeUnit.SECONDS);
            lock.unlockAsync(owner).get(10, TimeUnit.SECONDS);
            CompletableFuture<String> plain = client.commands().evalsha(ECHO, Replies.STRING, List.of(), "a");
            assertEquals("a", plain.get(10, TimeUnit.SECONDS));
            assertEquals(0, direct.calls());
            assertEquals(0, direct.openConnections());

            CompletableFuture<String> direct1 = echoAsBlockingCaller(client, "b");
            assertTrue(direct1.isDone(), "complete on return: the caller read the reply itself");
            assertEquals("b", direct1.getNow(null));
            assertEquals(1, direct.calls());
        }
    }

    @Test
    void aClientThreadNeverBlocksOnADirectConnection(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.port(), "direct-loop").build());
                RedisProbe probe = probe(redis)) {
            probe.call("SELECT", "3");
            DirectConnections direct = ClientInternals.directConnections(client);
            AtomicReference<Boolean> doneOnReturn = new AtomicReference<>();
            // The BLPOP answers once the list is pushed below (or, on a stalled machine, with nil after 3 s,
            // inside the 5 s command timeout): either way its callback runs on the event loop.
            CompletableFuture<String> fromLoop = client.commands()
                    .execute(Replies.VALUE, "BLPOP", "direct:signal", "3")
                    .thenCompose(pushed -> {
                        CompletableFuture<String> echo = echoAsBlockingCaller(client, "c");
                        doneOnReturn.set(echo.isDone());
                        return echo;
                    });
            assertTrue(Conditions.await(Duration.ofSeconds(10),
                    () -> ((String) probe.call("CLIENT", "LIST")).contains("cmd=blpop")), "the BLPOP is blocked");
            probe.call("RPUSH", "direct:signal", "go");
            assertEquals("c", fromLoop.get(10, TimeUnit.SECONDS));
            assertFalse(doneOnReturn.get(), "sent through the event loop, not read on it");
            assertEquals(0, direct.calls());
        }
    }

    @Test
    void moreBlockingCallersThanDirectConnectionsGoThroughTheEventLoop(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.port(), "direct-one").directConnections(1).build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            Thread other = new Thread(() -> {   // a second thread inside a blocking call, between round trips
                boolean outer = CallerWaits.enter();
                try {
                    inside.countDown();
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    CallerWaits.exit(outer);
                }
            }, "direct-other-caller");
            other.start();
            try {
                assertTrue(inside.await(10, TimeUnit.SECONDS));
                long before = direct.calls();
                HaspLock lock = client.getLock("direct:crowded");
                lock.lock();   // two threads in blocking calls, one direct connection
                lock.unlock();
                assertEquals(before, direct.calls());
            } finally {
                done.countDown();
                other.join(TimeUnit.SECONDS.toMillis(10));
            }
            HaspLock lock = client.getLock("direct:crowded");
            lock.lock();   // alone again
            lock.unlock();
            assertTrue(direct.calls() >= 2, "calls: " + direct.calls());
        }
    }

    @Test
    void threadsWaitingForAnotherHolderLeaveTheDirectPathToTheOthers(RedisServer redis) throws Exception {
        try (HaspClient holder = HaspClient.create(config(redis.port(), "direct-holder").directConnections(0).build());
                HaspClient client = HaspClient.create(config(redis.port(), "direct-queue").directConnections(1).build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            int countedBefore = CallerWaits.threads();
            assertEquals(0, countedBefore, "a thread of another test is still inside a blocking lock call");
            HaspLock held = holder.getLock("direct:busy");
            held.lock();
            AtomicInteger served = new AtomicInteger();
            List<Thread> waiters = new ArrayList<>();
            for (int i = 0; i < 3; i++) {   // more waiters than direct connections
                Thread waiter = new Thread(() -> {
                    HaspLock lock = client.getLock("direct:busy");
                    lock.lock();
                    served.incrementAndGet();
                    lock.unlock();
                }, "direct-waiter-" + i);
                waiters.add(waiter);
                waiter.start();
            }
            try {
                assertTrue(Conditions.await(Duration.ofSeconds(10),
                        () -> waiters.stream().allMatch(w -> w.getState() == Thread.State.WAITING)
                                && CallerWaits.threads() == countedBefore),
                        "the waiters park behind the holder and leave the count: " + CallerWaits.threads());
                long before = direct.calls();
                HaspLock other = client.getLock("direct:other");
                other.lock();
                other.unlock();
                assertEquals(before + 2, direct.calls(), "the lock's and the unlock's script went direct");
            } finally {
                held.unlock();
                for (Thread waiter : waiters) {
                    waiter.join(TimeUnit.SECONDS.toMillis(20));
                }
            }
            assertEquals(3, served.get(), "each waiter took the lock once it was free");
            assertFalse(client.getLock("direct:busy").isLocked());
            assertEquals(countedBefore, CallerWaits.threads(), "every call that left the count ended once");
        }
    }

    @Test
    void afterEveryConnectionWasCutBlockingCallsGoOnWithoutAFailure(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.port(), "direct-cut").build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            HaspLock lock = client.getLock("direct:cut");
            lock.lock();
            lock.unlock();
            assertEquals(1, direct.openConnections());

            proxy.cutAll();   // a restarted server looks the same: every socket closed under the client
            for (int i = 0; i < 20; i++) {
                lock.lock();
                assertTrue(lock.isHeldByCurrentThread());
                lock.unlock();
            }
            assertFalse(lock.isLocked());
            assertTrue(direct.openConnections() <= 1);
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> {
                CompletableFuture<String> echo = echoAsBlockingCaller(client, "back");
                return echo.isDone() && "back".equals(echo.getNow(null));
            }), "a direct connection serves again after the cut");
        }
    }

    @Test
    void noReplyWithinTheCommandTimeoutFailsTheCallAndClosesItsConnection(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.port(), "direct-slow")
                        .commandTimeout(Duration.ofMillis(500)).build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            try (RedisProbe probe = probe(redis)) {
                probe.call("SCRIPT", "LOAD", ECHO.text());   // no NOSCRIPT round on the proxied links
            }
            // The warm-up opens the direct connection; on a stalled machine an attempt may time out: retry.
            assertTrue(Conditions.await(Duration.ofSeconds(20), () -> {
                CompletableFuture<String> echo = echoAsBlockingCaller(client, "a");
                return echo.isDone() && "a".equals(echo.getNow(null)) && direct.openConnections() == 1;
            }), "a direct connection answers");

            proxy.delay(Duration.ofSeconds(3));
            CompletableFuture<String> slow = echoAsBlockingCaller(client, "b");
            assertTrue(slow.isDone(), "the caller waited for its deadline itself");
            ExecutionException failure = assertThrows(ExecutionException.class, slow::get);
            assertInstanceOf(RedisTimeoutException.class, failure.getCause());
            assertEquals(0, direct.openConnections(), "a connection out of step with the server is closed");

            proxy.delay(Duration.ZERO);
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> {
                CompletableFuture<String> echo = echoAsBlockingCaller(client, "c");
                return echo.isDone() && "c".equals(echo.getNow(null));
            }), "a new direct connection answers");
        }
    }

    @Test
    void aBoundedTryLockReadsItsReplyNoLongerThanItsWait(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port());
                HaspClient client = HaspClient.create(config(proxy.port(), "direct-bounded")
                        .commandTimeout(Duration.ofSeconds(60)).build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            HaspLock lock = client.getLock("direct:bounded");
            lock.lock();
            lock.unlock();
            long calls = direct.calls();
            try (RedisProbe probe = probe(redis);
                    java.io.InputStream turns = HaspClient.class.getResourceAsStream("/io/hasp/internal/lock/turns.lua");
                    java.io.InputStream rollback = HaspClient.class.getResourceAsStream("/io/hasp/internal/lock/rollback.lua")) {
                // The rollback below must not meet NOSCRIPT, whose answer the proxy would hold back. It runs as one
                // script with the opening it shares with the lock's other scripts.
                probe.call("SCRIPT", "LOAD", new String(turns.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                        + "\n" + new String(rollback.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            }
            proxy.delay(Duration.ofSeconds(120));   // far past the wait; the command timeout is a minute
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread caller = new Thread(() -> {
                try {
                    outcome.set(lock.tryLock(200, 30_000, TimeUnit.MILLISECONDS));
                } catch (Throwable e) {
                    outcome.set(e);
                }
            }, "bounded-caller");
            caller.start();
            caller.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(caller.isAlive(), "tryLock returned once its wait was over, not at the reply or the timeout");
            assertEquals(Boolean.FALSE, outcome.get());
            assertEquals(calls + 1, direct.calls(), "the attempt went out on the direct connection");
            assertEquals(0, direct.openConnections(), "its connection, out of step, was closed");

            try (RedisProbe probe = probe(redis)) {   // the server ran the attempt: the grant is rolled back
                probe.call("SELECT", "3");
                assertTrue(Conditions.await(Duration.ofSeconds(20), () -> Long.valueOf(0).equals(
                        probe.call("EXISTS", "direct:bounded"))), "nothing left held");
            }
            proxy.delay(Duration.ZERO);
            assertTrue(lock.tryLock(10, 30, TimeUnit.SECONDS));
            lock.unlock();
        }
    }

    @Test
    void aDirectConnectionClosedByTheServerWhileIdleIsNotTrusted(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.port(), "direct-idle").build());
                RedisProbe probe = probe(redis)) {
            DirectConnections direct = ClientInternals.directConnections(client);
            HaspLock lock = client.getLock("direct:idle");
            lock.lock();
            lock.unlock();
            assertEquals(1, direct.openConnections());
            // As a server's idle timeout, a NAT's cut or a restart would: closed under the client, unread.
            String line = ((String) probe.call("CLIENT", "LIST")).lines()
                    .filter(l -> l.contains(" name=direct-idle ") && l.contains(" cmd=evalsha ")).findFirst().orElseThrow();
            String id = line.substring(line.indexOf("id=") + 3, line.indexOf(' ', line.indexOf("id=")));
            assertEquals(1L, probe.call("CLIENT", "KILL", "ID", id));
            assertTrue(Conditions.await(Duration.ofSeconds(20), () -> direct.openConnections() == 0),
                    "an idle direct connection is closed after 5 s, not handed to the next call");
            assertTrue(lock.tryLock(), "a single attempt on a free lock succeeds");
            lock.unlock();
        }
    }

    @Test
    void anInterruptedThreadLeavesTheDirectPathAlone(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.port(), "direct-interrupted").build())) {
            DirectConnections direct = ClientInternals.directConnections(client);
            HaspLock lock = client.getLock("direct:interrupted");
            lock.lock();
            lock.unlock();
            long calls = direct.calls();
            Thread.currentThread().interrupt();   // a virtual thread's socket read would end at it, script sent
            try {
                lock.lock();
                lock.unlock();
            } finally {
                assertTrue(Thread.interrupted(), "lock() keeps the interrupt for the caller");
            }
            assertEquals(calls, direct.calls());
            assertFalse(lock.isLocked());
        }
    }

    @Test
    void aFlushedScriptIsLoadedAgainAndTheCallAnswers(RedisServer redis) throws Exception {
        try (HaspClient client = HaspClient.create(config(redis.port(), "direct-flush").build());
                RedisProbe probe = probe(redis)) {
            DirectConnections direct = ClientInternals.directConnections(client);
            assertEquals("a", echoAsBlockingCaller(client, "a").get(10, TimeUnit.SECONDS));
            HaspLock lock = client.getLock("direct:flush");
            lock.lock();
            lock.unlock();
            long calls = direct.calls();
            long noscript = probe.errorReplies("NOSCRIPT");
            probe.call("SCRIPT", "FLUSH");
            assertEquals("b", echoAsBlockingCaller(client, "b").get(10, TimeUnit.SECONDS));
            assertEquals(calls + 1, direct.calls(), "sent on the direct connection");
            assertEquals(noscript + 1, probe.errorReplies("NOSCRIPT"), "answered NOSCRIPT there, then loaded");
            lock.lock();
            assertTrue(lock.isHeldByCurrentThread());
            lock.unlock();
            assertFalse(lock.isLocked());
        }
    }

    @Test
    void closingTheClientEndsADirectCallWaitingForItsReply(RedisServer redis) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(redis.port())) {
            HaspClient client = HaspClient.create(config(proxy.port(), "direct-close")
                    .commandTimeout(Duration.ofSeconds(30)).build());
            DirectConnections direct = ClientInternals.directConnections(client);
            // the first call meets NOSCRIPT: loaded and answered on a multiplexed connection
            assertEquals("a", echoAsBlockingCaller(client, "a").get(10, TimeUnit.SECONDS));
            proxy.delay(Duration.ofSeconds(20));
            AtomicReference<CompletableFuture<String>> result = new AtomicReference<>();
            Thread caller = new Thread(() -> result.set(echoAsBlockingCaller(client, "b")), "direct-caller");
            caller.start();
            assertTrue(Conditions.await(Duration.ofSeconds(10), () -> direct.calls() == 2), "the call started");
            client.close();
            caller.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(caller.isAlive(), "close() ended the call");
            ExecutionException failure = assertThrows(ExecutionException.class, () -> result.get().get());
            assertInstanceOf(RedisClosedException.class, failure.getCause());
            assertEquals(0, direct.openConnections());
        }
    }

    @Test
    void theSettingIsCheckedAndShown() {
        assertEquals(8, HaspConfig.builder().build().directConnections());
        assertEquals(0, HaspConfig.builder().directConnections(0).build().directConnections());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> HaspConfig.builder().directConnections(-1));
        assertEquals("directConnections: -1 (expected: 0..1024)", negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HaspConfig.builder().directConnections(1025));
        assertTrue(HaspConfig.builder().directConnections(3).build().toString().contains("directConnections=3"));
        assertEquals(5, HaspConfig.builder().directConnections(5).build().toBuilder().build().directConnections());
    }
}
