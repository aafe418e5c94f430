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
import io.hasp.lock.FencedLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fenced lock against real redis-server processes: tokens that only grow, across clients and
 * re-entries; no token for a failed attempt; a paused holder whose lease ran out refused by a
 * resource that checks tokens; the watchdog, the lost signal and the async twins as on every lock.
 * Every test runs on one server, again on a local Redis Cluster and again behind Redis Sentinel
 * ({@link Topology}).
 */
@ParameterizedClass
@EnumSource(Topology.class)
class FencedLockIT {

    private static final Duration SLACK = Duration.ofSeconds(20);

    /**
     * The protected resource: a record that stores the token of its last write and accepts a write
     * only with a greater token, like {@code UPDATE ... SET value = ?, token = ? WHERE token < ?}.
     */
    private static final String FENCED_WRITE = "local last = tonumber(redis.call('hget', KEYS[1], 'token') or '0')"
            + " if tonumber(ARGV[1]) <= last then return 0 end"
            + " redis.call('hset', KEYS[1], 'token', ARGV[1], 'value', ARGV[2]) return 1";

    private static HaspClient one;
    private static HaspClient two;
    private static HaspClient shortWatchdog;
    private static TopologyServers servers;

    @Parameter
    Topology topology;

    private String name;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
        one = Clients.hasp(servers.uri(), seconds(30));
        two = Clients.hasp(servers.uri(), seconds(30));
        shortWatchdog = Clients.hasp(servers.uri(), millis(1_500));
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        try {
            one.close();
            two.close();
            shortWatchdog.close();
        } finally {
            servers.close();
        }
    }

    @BeforeEach
    void name(TestInfo test) {
        name = "fenced:" + test.getTestMethod().orElseThrow().getName();
    }

    private String counter() {
        String counter = "redisson_lock_token:{" + name + "}";
        return (String) servers.call(counter, "GET", counter);
    }

    private long write(String resource, long token, String value) {
        return (Long) servers.call(resource, "EVAL", FENCED_WRITE, "1", resource, Long.toString(token), value);
    }

    @Test
    void tokensGrowAcrossAcquisitionsReentriesAndClients() {
        FencedLock lock = one.getFencedLock(name);
        long first = lock.lockAndGetToken();
        assertEquals(OptionalLong.of(first), lock.getToken());
        long reentry = lock.lockAndGetToken();
        assertTrue(reentry > first, reentry + " after " + first);
        assertEquals(OptionalLong.of(reentry), lock.getToken(), "the latest acquisition's token");
        lock.unlock();
        lock.unlock();
        assertEquals(OptionalLong.empty(), lock.getToken(), "no hold, no token");
        FencedLock other = two.getFencedLock(name);
        long next = other.tryLockAndGetToken().orElseThrow();
        assertTrue(next > reentry, next + " after " + reentry);
        assertEquals(String.valueOf(next), counter());
        other.unlock();
    }

    @Test
    void anAttemptOnAHeldLockGetsNoTokenAndSpendsNone() throws InterruptedException {
        FencedLock held = one.getFencedLock(name);
        long token = held.lockAndGetToken(seconds(30));
        FencedLock other = two.getFencedLock(name);
        assertEquals(OptionalLong.empty(), other.tryLockAndGetToken(millis(100), seconds(10)));
        assertEquals(OptionalLong.empty(), other.tryLockAndGetToken());
        assertEquals(OptionalLong.empty(), other.getToken());
        assertEquals(String.valueOf(token), counter(), "the failed attempts took no token");
        held.unlock();
    }

    @Test
    void aFencedLockAndAPlainLockOfTheSameNameExcludeEachOther() throws InterruptedException {
        two.getLock(name).lock(seconds(30));
        assertEquals(OptionalLong.empty(), one.getFencedLock(name).tryLockAndGetToken(millis(50), seconds(10)));
        two.getLock(name).unlock();
        FencedLock fenced = one.getFencedLock(name);
        fenced.lockAndGetToken();
        assertFalse(two.getLock(name).tryLock(), "the fenced hold keeps the plain lock out");
        fenced.unlock();
    }

    @Test
    void aPausedHolderWhoseLeaseRanOutIsRefusedByTheResourceWhileTheNextHolderWrites() throws Exception {
        String resource = "stock:" + name;
        FencedLock paused = one.getFencedLock(name);
        long stale = paused.lockAndGetToken(millis(300));
        assertEquals(1L, write(resource, stale, "first write, in time"));
        // The holder stalls (a long GC, a frozen VM) past its lease; it does not know.
        await("the paused holder's lease runs out", SLACK, () -> (Long) servers.call(name, "EXISTS", name) == 0);
        FencedLock next = two.getFencedLock(name);
        long fresh = next.tryLockAndGetToken(SLACK, seconds(30)).orElseThrow();
        assertTrue(fresh > stale);
        assertEquals(1L, write(resource, fresh, "the next holder's write"));
        // The paused holder wakes up and writes with its token: the resource refuses it.
        assertEquals(0L, write(resource, stale, "the paused holder's late write"));
        assertEquals("the next holder's write", servers.call(resource, "HGET", resource, "value"));
        HoldLostException lost = assertThrows(HoldLostException.class, paused::unlock);
        assertEquals(HoldEnd.EXPIRED, lost.holdEnd());
        next.unlock();
    }

    @Test
    void theWatchdogRenewsAFencedHoldWithoutATokenPerRenewal() throws InterruptedException {
        FencedLock lock = shortWatchdog.getFencedLock(name);
        long token = lock.lockAndGetToken();
        long renewals = shortWatchdog.renewalCalls();
        await("two renewals", SLACK, () -> shortWatchdog.renewalCalls() >= renewals + 2);
        assertTrue(lock.isHeldByCurrentThread(), "held past its 1.5 s lease");
        assertEquals(OptionalLong.of(token), lock.getToken());
        assertEquals(String.valueOf(token), counter(), "renewals take no token");
        lock.unlock();
    }

    @Test
    void aFencedHoldWhoseKeyVanishesEndsAsLost() throws Exception {
        FencedLock lock = shortWatchdog.getFencedLock(name);
        lock.lockAndGetToken();
        CompletableFuture<HoldEnd> end = lock.holdEnd();
        servers.call(name, "DEL", name);
        assertEquals(HoldEnd.LOST, end.get(SLACK.toSeconds(), TimeUnit.SECONDS));
        assertEquals(OptionalLong.empty(), lock.getToken());
    }

    @Test
    void theAsyncTwinsAnswerTokensAndACancelledWaitLeavesNothingHeld() throws Exception {
        FencedLock lock = one.getFencedLock(name);
        LockOwner first = lock.owner(101);
        LockOwner second = lock.owner(102);
        long token = lock.lockAndGetTokenAsync(first).get(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertEquals(OptionalLong.of(token), lock.getToken(first));
        assertEquals(OptionalLong.empty(),
                lock.tryLockAndGetTokenAsync(Duration.ZERO, seconds(10), second).get(SLACK.toSeconds(), TimeUnit.SECONDS));
        CompletableFuture<OptionalLong> waiting = lock.tryLockAndGetTokenAsync(SLACK, seconds(10), second);
        CompletableFuture<Long> alsoWaiting = lock.lockAndGetTokenAsync(seconds(10), lock.owner(103));
        assertTrue(waiting.cancel(false));
        alsoWaiting.orTimeout(1, TimeUnit.MILLISECONDS);
        await("the caller's timeout ended the second wait", SLACK, alsoWaiting::isDone);
        lock.unlockAsync(first).get(SLACK.toSeconds(), TimeUnit.SECONDS);
        // an ended wait's acquire may still be on the wire and take the lock after the unlock; it gives it back
        await("nobody holds it after the unlock, neither ended wait kept it", SLACK,
                () -> (Long) servers.call(name, "EXISTS", name) == 0 && one.heldLocks() == 0);
        long after = lock.lockAndGetTokenAsync(second).get(SLACK.toSeconds(), TimeUnit.SECONDS);
        assertTrue(after > token);
        lock.unlockAsync(second).get(SLACK.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsSent() {
        assertThrows(IllegalArgumentException.class, () -> one.getFencedLock(""));
        FencedLock lock = one.getFencedLock(name);
        assertThrows(IllegalArgumentException.class, () -> lock.lockAndGetTokenAsync(null));
        assertThrows(IllegalArgumentException.class, () -> lock.getToken(null));
        assertThrows(IllegalArgumentException.class,
                () -> lock.tryLockAndGetTokenAsync(Duration.ofSeconds(-1), seconds(10), lock.owner(1)));
        assertEquals("FencedLock[" + name + ", fenced, client " + lock.owner(1).field().split(":")[0] + "]",
                lock.toString());
        assertInstanceOf(FencedLock.class, lock);
    }
}
