package io.hasp.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.it.Topology;
import io.hasp.it.TopologyServers;
import io.hasp.sync.HaspCountDownLatch;
import io.hasp.testing.Conditions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The count-down latch on one server, a local Redis Cluster and behind Sentinel: a count set once, counted down to
 * open, set anew; waiters of two clients woken when it opens; a wait that runs out or is given up leaves no
 * subscription behind.
 */
@ParameterizedClass
@EnumSource(Topology.class)
class LatchIT {

    /** Shorter than the waiters' re-check (3 s): a waiter done within it was woken by the count-down's message. */
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
        return "latch:" + test.getTestMethod().orElseThrow().getName();
    }

    private static long subscribers(String name) {
        return servers.subscribers("redisson_countdownlatch__channel__{" + name + "}");
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
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 2), "one subscription per client");
        latch.countDown();
        assertFalse(Conditions.await(Duration.ofMillis(200), () -> waiting.stream().anyMatch(CompletableFuture::isDone)),
                "still closed");
        other.getCountDownLatch(name).countDown();
        assertTrue(Conditions.await(WOKEN, () -> waiting.stream().allMatch(CompletableFuture::isDone)),
                "every waiter woken by the message, before any re-check");
        for (CompletableFuture<Boolean> w : waiting) {
            assertTrue(w.get(1, TimeUnit.SECONDS));
        }
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0), "the subscriptions end with the waits");
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
            assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1), "the thread waits");
            assertTrue(other.getCountDownLatch(name).delete());
            assertTrue(opened.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS));
        } finally {
            waiter.interrupt();
            waiter.join(DEADLINE.toMillis());
        }
    }

    @Test
    void aWaitGivenUpLeavesNoSubscription(TestInfo test) throws Exception {
        String name = name(test);
        HaspCountDownLatch latch = client.getCountDownLatch(name);
        assertTrue(latch.trySetCount(1));
        CompletableFuture<Void> waiting = latch.awaitAsync();
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 1));
        waiting.cancel(false);
        assertTrue(Conditions.await(DEADLINE, () -> subscribers(name) == 0), "nobody waits here any more");
        assertEquals(1, latch.getCount());
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsSent() {
        HaspCountDownLatch latch = client.getCountDownLatch("latch:bad");
        assertThrows(IllegalArgumentException.class, () -> latch.trySetCount(0));
        assertThrows(IllegalArgumentException.class, () -> client.getCountDownLatch(null));
        assertThrows(NullPointerException.class, () -> latch.awaitAsync(null));
    }
}
