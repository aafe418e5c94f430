package io.hasp.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.hasp.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The permit-expirable semaphore on one server, a local Redis Cluster (sharded channels on 7.0) and behind Sentinel:
 * permits leased by id, in Redisson's layout (the free count at the name, the leases in {@code {<name>}:timeout}),
 * given back and extended by id; a lease that runs out frees its permit for a waiter, who looks again when it runs
 * out without waiting for a message; releases wake waiters of other clients; a wait given up leases nothing; bad ids
 * and leases are refused with nothing changed in Redis.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class PermitExpirableSemaphoreIT {

    /** Shorter than the waiters' re-check (3 s): a waiter done within it was woken by a message or a lease's end. */
    private static final Duration WOKEN = Duration.ofMillis(2_500);
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static TopologyServers servers;
    private static HaspClient client;
    private static HaspClient other;

    @Parameter
    Topology topology;

    @BeforeParameterizedClassInvocation
    static void start(Topology topology) {
        servers = TopologyServers.start(topology);
        client = HaspClient.create(HaspConfig.builder().uri(servers.uri()).build());
        other = HaspClient.create(HaspConfig.builder().uri(servers.uri()).build());
    }

    @AfterParameterizedClassInvocation
    static void stop() {
        try {
            client.close();
            other.close();
        } finally {
            servers.close();
        }
    }

    private static String name(TestInfo test) {
        return "expirable:" + test.getTestMethod().orElseThrow().getName();
    }

    private static String leases(String name) {
        return "{" + name + "}:timeout";
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static long subscribers(String name) {
        return servers.subscribers("redisson_sc:{" + name + "}");
    }

    @Test
    void permitsAreLeasedByIdGivenBackAndExtended(TestInfo test) throws Exception {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        assertNull(semaphore.tryAcquire(Duration.ZERO, MINUTE), "never set: nothing to lease");
        assertTrue(semaphore.trySetPermits(2));
        assertFalse(semaphore.trySetPermits(5), "set once");
        String first = semaphore.tryAcquire(Duration.ZERO, MINUTE);
        long now = serverMillis(name);
        long ends = highestScore(name);
        assertTrue(ends > now + 50_000 && ends <= now + 61_000, "scored by the lease's end in epoch ms: " + ends);
        String second = other.getPermitExpirableSemaphore(name).tryAcquire(Duration.ZERO, MINUTE);
        assertTrue(first.matches("[0-9a-f]{32}"), first);
        assertNotEquals(first, second);
        assertNull(semaphore.tryAcquire(Duration.ZERO, MINUTE), "both leased");
        assertEquals(0, semaphore.availablePermits());
        assertEquals("0", servers.call(name, "GET", name), "the free permits at the name");
        assertEquals(2L, servers.call(name, "ZCARD", leases(name)), "one lease each");
        assertTrue(semaphore.updateLeaseTime(second, Duration.ofHours(1)), "anyone may extend a leased permit");
        long extended = highestScore(name);
        assertTrue(extended > now + 3_500_000, "extended to an hour: " + extended);

        semaphore.release(first);
        assertFalse(semaphore.tryRelease(first), "given back once");
        IllegalArgumentException again = assertThrows(IllegalArgumentException.class, () -> semaphore.release(first));
        assertTrue(again.getMessage().contains(first) && again.getMessage().contains("not leased"), again.getMessage());
        assertFalse(semaphore.updateLeaseTime(first, MINUTE), "a permit given back is not extended");
        assertEquals(1, semaphore.availablePermits());
        assertTrue(semaphore.tryRelease(second));
        assertEquals(2, semaphore.availablePermits());
        assertEquals(0L, servers.call(name, "EXISTS", leases(name)), "no lease left");
        semaphore.addPermits(1);
        assertEquals(3, semaphore.availablePermits());
    }

    @Test
    void aLeaseThatRunsOutFreesItsPermitForAWaiterWithoutAMessage(TestInfo test) throws Exception {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        assertTrue(semaphore.trySetPermits(1));
        String short_ = other.getPermitExpirableSemaphore(name).tryAcquire(Duration.ZERO, Duration.ofMillis(700));
        assertNotNull(short_);
        CompletableFuture<String> waiting = semaphore.tryAcquireAsync(MINUTE, MINUTE);
        // Nobody releases, so no message comes: the waiter looks again when the lease ends, before its 3 s re-check.
        assertTrue(Conditions.await(Duration.ofMillis(700).plus(WOKEN), waiting::isDone),
                "the waiter took the permit when the lease ran out");
        String taken = get(waiting);
        assertNotNull(taken);
        assertFalse(other.getPermitExpirableSemaphore(name).tryRelease(short_), "the lease that ran out is gone");
        assertEquals(0, semaphore.availablePermits());
        semaphore.release(taken);
        assertEquals(1, semaphore.availablePermits());
    }

    @Test
    void aPermitWhoseLeaseRanOutIsReclaimedByWhoeverLooks(TestInfo test) throws Exception {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        assertTrue(semaphore.trySetPermits(2));
        String leased = semaphore.tryAcquire(Duration.ZERO, Duration.ofMillis(100));
        assertNotNull(leased);
        assertTrue(Conditions.await(DEADLINE, () -> semaphore.availablePermits() == 2), "reclaimed by a look");
        assertEquals(0L, servers.call(name, "EXISTS", leases(name)));
        IllegalArgumentException late = assertThrows(IllegalArgumentException.class, () -> semaphore.release(leased));
        assertTrue(late.getMessage().contains("not leased"), late.getMessage());
        assertEquals(2, semaphore.availablePermits(), "a late release adds nothing");
    }

    @Test
    void aReleaseWakesAWaiterOfAnotherClient(TestInfo test) throws Exception {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        assertTrue(semaphore.trySetPermits(1));
        String held = semaphore.tryAcquire(Duration.ZERO, MINUTE);
        CompletableFuture<String> waiting = other.getPermitExpirableSemaphore(name).tryAcquireAsync(MINUTE, MINUTE);
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1), "the waiter listens");
        semaphore.release(held);
        assertTrue(Conditions.await(WOKEN, waiting::isDone), "woken by the release's message, before any re-check");
        assertNotNull(get(waiting));
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0), "the subscription ends with the wait");
    }

    @Test
    void aWaitGivenUpLeasesNothingAndLeavesNoSubscription(TestInfo test) throws Exception {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        assertTrue(semaphore.trySetPermits(1));
        String held = semaphore.tryAcquire(Duration.ZERO, MINUTE);
        CompletableFuture<String> cancelled = semaphore.acquireAsync(MINUTE);
        assertNull(semaphore.tryAcquire(Duration.ofMillis(200), MINUTE), "the wait runs out");
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1));
        cancelled.cancel(false);
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0), "nobody waits here any more");
        semaphore.release(held);
        assertEquals(1, semaphore.availablePermits(), "the permit stays free: the cancelled wait leased nothing");
        assertEquals(0L, servers.call(name, "EXISTS", leases(name)));
    }

    @Test
    void permitsBoundTheHoldersAcrossClients(TestInfo test) throws Exception {
        String name = name(test);
        assertTrue(client.getPermitExpirableSemaphore(name).trySetPermits(2));
        int most = PermitHolders.mostInside(6, 30, i -> {
            HaspPermitExpirableSemaphore semaphore = (i % 2 == 0 ? client : other).getPermitExpirableSemaphore(name);
            return () -> {
                String id = semaphore.acquire(MINUTE);
                return () -> semaphore.release(id);
            };
        });
        assertTrue(most <= 2, "at most two inside at once: " + most);
        assertEquals(2, client.getPermitExpirableSemaphore(name).availablePermits(), "every permit back");
        assertEquals(0L, servers.call(name, "EXISTS", leases(name)), "no lease left");
    }

    @Test
    void closingTheClientEndsItsWaits(TestInfo test) throws Exception {
        String name = name(test);
        HaspClient closing = HaspClient.create(HaspConfig.builder().uri(servers.uri()).build());
        HaspPermitExpirableSemaphore semaphore = closing.getPermitExpirableSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        CompletableFuture<String> waiting = semaphore.acquireAsync(MINUTE);
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) > 0), "the wait listens");
        closing.close();
        ExecutionException ended = assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
        assertTrue(ended.getCause() instanceof RedisClosedException, String.valueOf(ended.getCause()));
        assertEquals(0, client.getPermitExpirableSemaphore(name).availablePermits(), "nothing was leased");
    }

    /** A client whose watchdog lease is short: its permits taken without a lease are renewed every 0.4 s. */
    private static HaspClient shortWatchdog() {
        return HaspClient.create(HaspConfig.builder().uri(servers.uri()).watchdogLease(Duration.ofMillis(1_200)).build());
    }

    @Test
    void aPermitTakenWithoutALeaseIsKeptWhileItsClientLives(TestInfo test) throws Exception {
        String name = name(test);
        try (HaspClient keeping = shortWatchdog()) {
            HaspPermitExpirableSemaphore semaphore = keeping.getPermitExpirableSemaphore(name);
            assertTrue(semaphore.trySetPermits(1));
            String id = semaphore.tryAcquire();
            assertNotNull(id);
            CompletableFuture<io.hasp.lock.HoldEnd> end = semaphore.leaseEnd(id);
            long firstEnd = highestScore(name);
            long start = serverMillis(name);
            assertTrue(firstEnd <= start + 1_200, "leased for the watchdog's lease: " + (firstEnd - start) + " ms");
            // Three leases later, by the server's clock, it is still leased, and its lease was renewed meanwhile.
            assertTrue(Conditions.await(DEADLINE, () -> serverMillis(name) > start + 3_600));
            assertEquals(0, semaphore.availablePermits(), "still taken");
            assertTrue(highestScore(name) > firstEnd + 2_000, "renewed");
            assertFalse(end.isDone());
            IllegalStateException kept = assertThrows(IllegalStateException.class,
                    () -> semaphore.updateLeaseTime(id, MINUTE));
            assertTrue(kept.getMessage().contains("watchdog"), kept.getMessage());
            assertTrue(semaphore.tryRelease(id));
            assertEquals(io.hasp.lock.HoldEnd.RELEASED, get(end));
            assertEquals(1, semaphore.availablePermits());
        }
    }

    @Test
    void aPermitOfAClientClosedWithoutReleasingComesBackWithinALease(TestInfo test) throws Exception {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        assertTrue(semaphore.trySetPermits(1));
        CompletableFuture<io.hasp.lock.HoldEnd> end;
        try (HaspClient closing = shortWatchdog()) {
            String id = closing.getPermitExpirableSemaphore(name).acquire();
            end = closing.getPermitExpirableSemaphore(name).leaseEnd(id);
        }
        assertEquals(io.hasp.lock.HoldEnd.CLIENT_CLOSED, get(end));
        CompletableFuture<String> waiting = semaphore.tryAcquireAsync(MINUTE, MINUTE);
        // Within the lease (1.2 s), looked at when it ends, not at the 3 s re-check.
        assertTrue(Conditions.await(Duration.ofMillis(1_200).plus(WOKEN), waiting::isDone),
                "the permit came back when its lease ran out");
        semaphore.release(get(waiting));
    }

    @Test
    void aKeptPermitFoundGoneEndsLost(TestInfo test) throws Exception {
        String name = name(test);
        List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
        io.hasp.HaspListener listener = new io.hasp.HaspListener() {
            @Override
            public void holdEnded(String kind, String lock, io.hasp.lock.HoldEnd how, long heldNanos) {
                heard.add(kind + " " + lock + " " + how);
            }
        };
        try (HaspClient keeping = HaspClient.create(HaspConfig.builder().uri(servers.uri())
                .watchdogLease(Duration.ofMillis(1_200)).listener(listener).build())) {
            HaspPermitExpirableSemaphore semaphore = keeping.getPermitExpirableSemaphore(name);
            assertTrue(semaphore.trySetPermits(1));
            String id = semaphore.acquire();
            CompletableFuture<io.hasp.lock.HoldEnd> end = semaphore.leaseEnd(id);
            assertTrue(other.getPermitExpirableSemaphore(name).tryRelease(id), "another client gives it back");
            assertEquals(io.hasp.lock.HoldEnd.LOST, get(end), "the watchdog's next renewal found it gone");
            assertEquals(1, semaphore.availablePermits(), "nothing renewed it back");
            assertEquals(io.hasp.lock.HoldEnd.LOST, get(semaphore.leaseEnd(id)), "asked again, it still says so");
            assertTrue(Conditions.await(DEADLINE, () -> heard.contains("expirable-permit " + name + " LOST")),
                    "the listener heard it: " + heard);
        }
    }

    @Test
    void badIdsAndLeasesAreRefusedAndChangeNothing(TestInfo test) {
        String name = name(test);
        HaspPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(name);
        for (String bad : new String[] {null, "", "nope", "0123456789abcdef0123456789abcde",
                "0123456789abcdef0123456789abcdeg", "0123456789abcdef0123456789abcdef0"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> semaphore.release(bad));
            assertTrue(refused.getMessage().contains("permit id") && refused.getMessage().contains("32 hexadecimal"),
                    refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> semaphore.tryReleaseAsync(bad));
            assertThrows(IllegalArgumentException.class, () -> semaphore.updateLeaseTime(bad, MINUTE));
        }
        for (Duration bad : new Duration[] {null, Duration.ZERO, Duration.ofMillis(-5), Duration.ofNanos(999_999)}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> semaphore.tryAcquireAsync(Duration.ZERO, bad));
            assertTrue(refused.getMessage().contains("leaseTime") && refused.getMessage().contains("at least 1 ms"),
                    refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> semaphore.acquireAsync(bad));
            assertThrows(IllegalArgumentException.class, () -> semaphore.tryAcquire(MINUTE, bad));
            assertThrows(IllegalArgumentException.class,
                    () -> semaphore.updateLeaseTime("0123456789abcdef0123456789abcdef", bad));
        }
        assertThrows(IllegalArgumentException.class, () -> semaphore.trySetPermits(-1));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> semaphore.release("0123456789ABCDEF0123456789abcdef"));
        assertTrue(unknown.getMessage().contains("not leased"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> client.getPermitExpirableSemaphore(""));
        assertEquals(0L, servers.call(name, "EXISTS", name), "nothing set");
        assertEquals(0L, servers.call(name, "EXISTS", leases(name)), "nothing leased");
    }

    /** The server's clock in milliseconds, on the node of {@code key}. */
    private static long serverMillis(String key) {
        List<?> time = (List<?>) servers.call(key, "TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }

    /** The latest end of a lease of semaphore {@code name}, its highest score. */
    private static long highestScore(String name) {
        List<?> last = (List<?>) servers.call(name, "ZRANGE", leases(name), "-1", "-1", "WITHSCORES");
        return (long) Double.parseDouble((String) last.get(1));
    }
}
