package io.hasp.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisClosedException;
import io.hasp.it.HotContention;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.sync.HaspCountDownLatch;
import io.hasp.sync.HaspSemaphore;
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
 * The semaphore and the count-down latch on one server, a local Redis Cluster (sharded channels on 7.0) and behind
 * Sentinel. The semaphore: permits set once, taken and given back, waiters woken by releases of other clients (at
 * most as many as the permits a release frees), and a wait given up leaves no permit taken and no subscription
 * behind. The latch: a count set once, counted down to open, set anew; waiters of two clients woken when it opens;
 * a wait given up leaves no subscription behind.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class SynchronizersIT {

    /** Shorter than the waiters' re-check (3 s): a waiter done within it was woken by a message. */
    private static final Duration WOKEN = Duration.ofMillis(2_500);
    private static final Duration DEADLINE = Duration.ofSeconds(20);

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
        return "sem:" + test.getTestMethod().orElseThrow().getName();
    }

    private static <T> T get(CompletableFuture<T> future) throws Exception {
        return future.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static long subscribers(String name) {
        return servers.subscribers("redisson_sc:{" + name + "}");
    }

    private static long latchSubscribers(String name) {
        return servers.subscribers("redisson_countdownlatch__channel__{" + name + "}");
    }

    @Test
    void permitsAreSetOnceAddedDrainedTakenAndGivenBack(TestInfo test) throws Exception {
        HaspSemaphore semaphore = client.getSemaphore(name(test));
        assertEquals(0, semaphore.availablePermits(), "never set: no permits");
        assertFalse(semaphore.tryAcquire(), "nothing to take");
        assertTrue(semaphore.trySetPermits(3));
        assertFalse(semaphore.trySetPermits(10), "set once");
        assertEquals(3, semaphore.availablePermits());
        assertTrue(semaphore.tryAcquire(2));
        assertFalse(semaphore.tryAcquire(2), "one left");
        assertTrue(semaphore.tryAcquire());
        assertEquals(0, semaphore.availablePermits());
        semaphore.release(3);
        semaphore.addPermits(2);
        assertEquals(5, semaphore.availablePermits());
        semaphore.addPermits(-1);
        assertEquals(4, semaphore.drainPermits());
        assertEquals(0, semaphore.availablePermits());
        assertEquals(0, semaphore.drainPermits());
        semaphore.addPermits(-2);
        assertEquals(-2, semaphore.drainPermits(), "a count below zero is drained to 0, and said, as Redisson does");
        assertEquals(0, semaphore.availablePermits());
        assertEquals("0", servers.call(name(test), "GET", name(test)), "the permits at the name, as a number");
    }

    @Test
    void aWaiterIsWokenByAReleaseOfAnotherClient(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        CompletableFuture<Boolean> waiting = semaphore.tryAcquireAsync(1, Duration.ofSeconds(60));
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1), "the waiter listens");
        other.getSemaphore(name).release();
        assertTrue(Conditions.await(WOKEN, waiting::isDone), "woken by the release's message, before any re-check");
        assertTrue(get(waiting));
        Object lineTtl = servers.call(name, "PTTL", "hasp_semaphore_line:{" + name + "}");
        assertNotEquals(-1L, lineTtl, "the line of waiting processes keeps its time to live as it turns");
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0), "the subscription ends with the wait");
    }

    @Test
    void aReleaseOfTwoPermitsWakesTwoOfFiveWaitersHere(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        long start = HotContention.scripts(servers, name);
        List<CompletableFuture<Boolean>> waiting = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiting.add(semaphore.tryAcquireAsync(1, Duration.ofSeconds(60)));
        }
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1), "one subscription for five waiters");
        // Each waiter tries, joins, and tries again once subscribed: ten scripts, then they park.
        assertTrue(Conditions.await(DEADLINE, () -> HotContention.scripts(servers, name) - start >= 10));
        other.getSemaphore(name).addPermits(0);   // the release script loaded where the semaphore lives: no NOSCRIPT
        long before = HotContention.scripts(servers, name);
        other.getSemaphore(name).release(2);
        assertTrue(Conditions.await(WOKEN, () -> waiting.stream().filter(CompletableFuture::isDone).count() == 2),
                "two waiters took the two permits");
        long scripts = HotContention.scripts(servers, name) - before;
        assertTrue(scripts <= 3, scripts + " scripts for a release of two permits (the release and two acquires;"
                + " a release that woke every waiter here would run six)");
        waiting.forEach(w -> w.cancel(false));
        assertEquals(0, semaphore.availablePermits());
    }

    private static List<HaspClient> processes(int count) {
        List<HaspClient> processes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            processes.add(HaspClient.create(HaspConfig.builder().uri(servers.uri()).build()));
        }
        return processes;
    }

    private static long done(List<CompletableFuture<Boolean>> waits) {
        return waits.stream().filter(CompletableFuture::isDone).count();
    }

    @Test
    void eachReleaseWakesOneWaitingProcessNotEveryOne(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        semaphore.addPermits(0);   // the release script loaded where the semaphore lives: no NOSCRIPT below
        List<HaspClient> processes = processes(8);
        try {
            long start = HotContention.scripts(servers, name);
            List<CompletableFuture<Boolean>> waiting = new ArrayList<>();
            for (HaspClient process : processes) {
                waiting.add(process.getSemaphore(name).tryAcquireAsync(1, Duration.ofSeconds(60)));
            }
            assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 8), "eight processes wait");
            // Each waiter tries, joins, and tries again once subscribed (standing in line): sixteen scripts.
            assertTrue(Conditions.await(DEADLINE, () -> HotContention.scripts(servers, name) - start >= 16));
            // The waiters parked together, so their re-checks (every 3 s) come together: a hand-off's scripts are
            // counted while none can have come yet.
            long parked = System.nanoTime();
            for (int handOff = 1; handOff <= 8; handOff++) {
                long before = HotContention.scripts(servers, name);
                semaphore.release();
                long expected = handOff;
                assertTrue(Conditions.await(WOKEN, () -> done(waiting) == expected),
                        "hand-off " + handOff + ": one more process took the permit, woken by the release");
                long scripts = HotContention.scripts(servers, name) - before;
                boolean beforeRechecks = System.nanoTime() - parked < WOKEN.toNanos();
                if (servers.publishCountsListeners() && (handOff == 1 || beforeRechecks)) {
                    assertTrue(scripts <= 3, "hand-off " + handOff + ": " + scripts + " scripts (the release and"
                            + " the woken process's acquire; waking every waiting process would run "
                            + (10 - handOff) + ")");
                }
            }
            for (CompletableFuture<Boolean> wait : waiting) {
                assertTrue(get(wait));
            }
            assertEquals(0, semaphore.availablePermits());
        } finally {
            processes.forEach(HaspClient::close);
        }
    }

    /**
     * Starts a wait of {@code process} for {@code permits} of semaphore {@code name}, and returns it once the waiter
     * tried, joined and tried again (standing in line where processes take places) and, where processes stand in
     * line, once its process listens on its own wake channel: a release wakes, and gives a turn to, only a process
     * that listens there.
     */
    private static CompletableFuture<Boolean> waitInLine(HaspClient process, String name, int permits) {
        long before = HotContention.scripts(servers, name);
        CompletableFuture<Boolean> wait = process.getSemaphore(name).tryAcquireAsync(permits, Duration.ofSeconds(60));
        assertTrue(Conditions.await(DEADLINE, () -> HotContention.scripts(servers, name) - before >= 2),
                "the waiter tried twice");
        if (servers.publishCountsListeners()) {
            String tag = name.indexOf('{') >= 0 ? name : "{" + name + "}";
            String own = "hasp_semaphore_wake__channel:" + tag + ":" + process.id();
            assertTrue(Conditions.await(DEADLINE, () -> servers.subscribers(own) >= 1), "the process listens on " + own);
        }
        return wait;
    }

    @Test
    void aWakeThatNoWaiterOfAProcessCanUseIsPassedOnToTheNextInLine(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        List<HaspClient> processes = processes(2);
        try {
            CompletableFuture<Boolean> forThree = waitInLine(processes.get(0), name, 3);
            CompletableFuture<Boolean> forOne = waitInLine(processes.get(1), name, 1);
            semaphore.release();
            assertTrue(Conditions.await(WOKEN, forOne::isDone), "the waiter for one, second in line, was woken");
            assertTrue(get(forOne));
            assertFalse(forThree.isDone(), "one permit is not three");
            semaphore.release(3);
            assertTrue(get(forThree));
        } finally {
            processes.forEach(HaspClient::close);
        }
    }

    @Test
    void aCallerThatReleasesAndAsksAgainAtOnceLeavesThePermitToTheProcessItWoke(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(1));
        assertTrue(semaphore.tryAcquire());
        List<HaspClient> processes = processes(1);
        try {
            CompletableFuture<Boolean> woken = waitInLine(processes.get(0), name, 1);
            semaphore.release();
            boolean barged = semaphore.tryAcquire();   // at once: within the woken process's turn
            if (servers.publishCountsListeners()) {
                assertFalse(barged, "the permit is kept for the process the release woke");
                assertTrue(get(woken), "and that process takes it");
            } else {   // no line on a cluster's classic channels: whoever comes first takes it
                if (barged) {
                    semaphore.release();
                }
                assertTrue(get(woken));
            }
        } finally {
            processes.forEach(HaspClient::close);
        }
    }

    @Test
    void aProcessThatStoppedWaitingIsPassedOverInLine(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        List<HaspClient> processes = processes(2);
        try {
            CompletableFuture<Boolean> gone = waitInLine(processes.get(0), name, 1);
            processes.get(0).close();   // its place stays in line; nobody listens for it any more
            assertTrue(gone.isCompletedExceptionally());
            CompletableFuture<Boolean> next = waitInLine(processes.get(1), name, 1);
            semaphore.release();
            assertTrue(Conditions.await(WOKEN, next::isDone), "the live process was woken, the gone one passed over");
            assertTrue(get(next));
        } finally {
            processes.forEach(HaspClient::close);
        }
    }

    @Test
    void aWaitGivenUpTakesNothingAndLeavesNoSubscription(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        CompletableFuture<Void> cancelled = semaphore.acquireAsync(1);
        assertFalse(semaphore.tryAcquire(1, Duration.ofMillis(200)), "the wait runs out");
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1));
        cancelled.cancel(false);
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0), "nobody waits here any more");
        semaphore.release();
        assertEquals(1, semaphore.availablePermits(), "the permit stays free: the cancelled wait took nothing");
    }

    @Test
    void anInterruptedAcquireGivesUpItsWait(TestInfo test) throws Exception {
        String name = name(test);
        HaspSemaphore semaphore = client.getSemaphore(name);
        assertTrue(semaphore.trySetPermits(0));
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                semaphore.acquire();
                thrown.complete(null);
            } catch (Throwable t) {
                thrown.complete(t);
            }
        }, "semaphore-waiter");
        waiter.start();
        try {
            assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1), "the thread waits");
            waiter.interrupt();
            assertTrue(get(thrown) instanceof InterruptedException, "acquire() throws InterruptedException");
        } finally {
            waiter.interrupt();
            waiter.join(DEADLINE.toMillis());
        }
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0));
        semaphore.release();
        assertEquals(1, semaphore.availablePermits());
    }

    @Test
    void permitsBoundTheHoldersAcrossClients(TestInfo test) throws Exception {
        String name = name(test);
        assertTrue(client.getSemaphore(name).trySetPermits(2));
        int most = PermitHolders.mostInside(6, 30, i -> {
            HaspSemaphore semaphore = (i % 2 == 0 ? client : other).getSemaphore(name);
            return () -> {
                semaphore.acquire();
                return semaphore::release;
            };
        });
        assertTrue(most <= 2, "at most two inside at once: " + most);
        assertEquals(2, client.getSemaphore(name).availablePermits(), "every permit back");
    }

    @Test
    void theListenerHearsEachWaitAsAnAcquisition(TestInfo test) throws Exception {
        String name = name(test);
        List<String> heard = java.util.Collections.synchronizedList(new ArrayList<>());
        io.hasp.HaspListener listener = new io.hasp.HaspListener() {
            @Override
            public Object acquireStarted(String kind, String lock) {
                return kind + " " + lock;
            }

            @Override
            public void acquired(String kind, String lock, long waitNanos, Object started) {
                heard.add("acquired " + started);
            }

            @Override
            public void acquireFailed(String kind, String lock, long waitNanos, Throwable cause, Object started) {
                heard.add("failed " + started + (cause == null ? "" : " " + cause.getClass().getSimpleName()));
            }
        };
        try (HaspClient heardClient = HaspClient.create(HaspConfig.builder().uri(servers.uri()).listener(listener)
                .build())) {
            HaspSemaphore semaphore = heardClient.getSemaphore(name);
            assertTrue(semaphore.trySetPermits(1));
            assertTrue(semaphore.tryAcquire(1, Duration.ofSeconds(5)));
            assertFalse(semaphore.tryAcquire(1, Duration.ofMillis(50)), "none left");
            String id = heardClient.getPermitExpirableSemaphore(name + ":leased").tryAcquire(Duration.ZERO,
                    Duration.ofMinutes(1));
            assertEquals(null, id, "never set");
            HaspCountDownLatch latch = heardClient.getCountDownLatch(name + ":latch");
            assertTrue(latch.await(Duration.ofSeconds(5)), "an open latch");
            CompletableFuture<Void> cancelled = semaphore.acquireAsync(1);
            cancelled.cancel(false);
            assertTrue(Conditions.await(DEADLINE, () -> heard.size() == 5), heard::toString);
            assertEquals(java.util.Set.of("acquired semaphore " + name, "failed semaphore " + name,
                    "failed expirable-semaphore " + name + ":leased", "acquired latch " + name + ":latch",
                    "failed semaphore " + name + " CancellationException"), new java.util.HashSet<>(heard), heard::toString);
        }
    }

    @Test
    void closingTheClientEndsItsWaits(TestInfo test) throws Exception {
        String name = name(test);
        HaspClient closing = HaspClient.create(HaspConfig.builder().uri(servers.uri()).build());
        assertTrue(closing.getSemaphore(name).trySetPermits(0));
        assertTrue(closing.getCountDownLatch(name + ":latch").trySetCount(1));
        CompletableFuture<Void> acquiring = closing.getSemaphore(name).acquireAsync(1);
        CompletableFuture<Boolean> bounded = closing.getSemaphore(name).tryAcquireAsync(1, Duration.ofSeconds(60));
        CompletableFuture<Void> awaiting = closing.getCountDownLatch(name + ":latch").awaitAsync();
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) > 0),
                () -> "the semaphore's waits listen: " + acquiring + ", " + bounded);
        assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name + ":latch") > 0), "the latch's wait listens");
        closing.close();
        for (CompletableFuture<?> wait : List.of(acquiring, bounded, awaiting)) {
            ExecutionException ended = assertThrows(ExecutionException.class, () -> wait.get(10, TimeUnit.SECONDS));
            assertTrue(ended.getCause() instanceof RedisClosedException, String.valueOf(ended.getCause()));
        }
        ExecutionException late = assertThrows(ExecutionException.class,
                () -> closing.getSemaphore(name).tryAcquireAsync(1, Duration.ofSeconds(1)).get(10, TimeUnit.SECONDS));
        assertTrue(late.getCause() instanceof RedisClosedException, "a wait started after the close fails: "
                + late.getCause());
        assertEquals(0, client.getSemaphore(name).availablePermits(), "nothing was taken");
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsSent() {
        HaspSemaphore semaphore = client.getSemaphore("sem:bad");
        assertThrows(IllegalArgumentException.class, () -> semaphore.acquire(0));
        assertThrows(IllegalArgumentException.class, () -> semaphore.tryAcquire(-1));
        assertThrows(IllegalArgumentException.class, () -> semaphore.release(0));
        assertThrows(IllegalArgumentException.class, () -> semaphore.releaseAsync(0));
        assertThrows(IllegalArgumentException.class, () -> semaphore.trySetPermits(-1));
        assertThrows(IllegalArgumentException.class, () -> client.getSemaphore(""));
        assertThrows(NullPointerException.class, () -> semaphore.tryAcquireAsync(1, null));
    }

    @Test
    void aCountIsSetOnceCountedDownToOpenAndSetAnew(TestInfo test) throws Exception {
        String name = name(test);
        HaspCountDownLatch latch = client.getCountDownLatch(name);
        assertEquals(0, latch.getCount(), "no count: open");
        assertTrue(latch.await(Duration.ZERO), "an open latch lets a waiter through");
        assertTrue(latch.trySetCount(2));
        assertFalse(latch.trySetCount(5), "set once");
        assertFalse(latch.await(Duration.ofMillis(100)), "closed: the wait runs out");
        latch.countDown();
        assertEquals(1, latch.getCount());
        other.getCountDownLatch(name).countDown();
        assertEquals(0, latch.getCount());
        assertEquals(0L, servers.call(name, "EXISTS", name), "open: the key is gone");
        latch.countDown();
        assertEquals(0, latch.getCount(), "counting down an open latch does nothing");
        assertTrue(latch.trySetCount(1), "an open latch takes a new count");
        assertTrue(latch.delete());
        assertEquals(0, latch.getCount());
    }

    @Test
    void waitersOfTwoClientsAreWokenWhenTheLatchOpens(TestInfo test) throws Exception {
        String name = name(test);
        HaspCountDownLatch latch = client.getCountDownLatch(name);
        assertTrue(latch.trySetCount(2));
        List<CompletableFuture<Boolean>> waiting = List.of(latch.awaitAsync(Duration.ofSeconds(60)),
                latch.awaitAsync(Duration.ofSeconds(60)), other.getCountDownLatch(name).awaitAsync(Duration.ofSeconds(60)));
        assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name) == 2), "one subscription per client");
        latch.countDown();
        assertFalse(Conditions.await(Duration.ofMillis(200), () -> waiting.stream().anyMatch(CompletableFuture::isDone)),
                "still closed");
        other.getCountDownLatch(name).countDown();
        assertTrue(Conditions.await(WOKEN, () -> waiting.stream().allMatch(CompletableFuture::isDone)),
                "every waiter woken by the message, before any re-check");
        for (CompletableFuture<Boolean> w : waiting) {
            assertTrue(w.get(1, TimeUnit.SECONDS));
        }
        assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name) == 0), "the subscriptions end with the waits");
    }

    @Test
    void aBlockingAwaitReturnsWhenAnotherClientDeletesTheLatch(TestInfo test) throws Exception {
        String name = name(test);
        HaspCountDownLatch latch = client.getCountDownLatch(name);
        assertTrue(latch.trySetCount(5));
        CompletableFuture<Boolean> opened = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                latch.await();
                opened.complete(true);
            } catch (Throwable t) {
                opened.completeExceptionally(t);
            }
        }, "latch-waiter");
        waiter.start();
        try {
            assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name) == 1), "the thread waits");
            assertTrue(other.getCountDownLatch(name).delete());
            assertTrue(opened.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
        } finally {
            waiter.interrupt();
            waiter.join(DEADLINE.toMillis());
        }
    }

    @Test
    void aLatchWaiterThatMissedTheOpeningLooksAgainAtItsDeadline(TestInfo test) throws Exception {
        String name = name(test);
        HaspCountDownLatch latch = client.getCountDownLatch(name);
        assertTrue(latch.trySetCount(1));
        CompletableFuture<Boolean> waiting = latch.awaitAsync(Duration.ofMillis(1_500));   // before any re-check
        assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name) == 1), "the waiter listens");
        servers.call(name, "DEL", name);   // opened with no message at all
        assertTrue(waiting.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "its last look found the latch open");
    }

    @Test
    void aWaitGivenUpLeavesNoSubscription(TestInfo test) throws Exception {
        String name = name(test);
        HaspCountDownLatch latch = client.getCountDownLatch(name);
        assertTrue(latch.trySetCount(1));
        CompletableFuture<Void> waiting = latch.awaitAsync();
        assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name) == 1));
        waiting.cancel(false);
        assertTrue(Conditions.await(DEADLINE, () -> latchSubscribers(name) == 0), "nobody waits here any more");
        assertEquals(1, latch.getCount());
    }

    @Test
    void badLatchArgumentsAreRefusedBeforeAnythingIsSent() {
        HaspCountDownLatch latch = client.getCountDownLatch("latch:bad");
        assertThrows(IllegalArgumentException.class, () -> latch.trySetCount(0));
        assertThrows(IllegalArgumentException.class, () -> client.getCountDownLatch(null));
        assertThrows(NullPointerException.class, () -> latch.awaitAsync(null));
    }
}
