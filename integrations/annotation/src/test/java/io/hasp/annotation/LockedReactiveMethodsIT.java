package io.hasp.annotation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.lock.HaspLock;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

/**
 * {@link Locked} methods that return a {@code Mono} or {@code Flux}, behind {@link LockedProxies}, on a
 * real redis-server: each subscription holds the lock from before its publisher runs until it
 * completes, fails or is cancelled; another subscription waits; a lock held elsewhere refuses or skips.
 */
@ExtendWith(RedisServerExtension.class)
class LockedReactiveMethodsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static HaspClient client;
    private static HaspClient elsewhere;
    private static RedisProbe probe;

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        elsewhere = HaspClient.create(server.uri());
        probe = server.probe();
    }

    @AfterAll
    static void stop() {
        client.close();
        elsewhere.close();
        probe.close();
    }

    interface Feeds {
        @Locked(value = "feed", waitTime = 20_000, retryCount = 0)
        Mono<String> refresh(@LockKey String id, Mono<String> work);

        @Locked(value = "feed", waitTime = 20_000, retryCount = 0)
        Flux<Integer> replay(@LockKey String id, Flux<Integer> work);

        @Locked(value = "feed", retryCount = 1, retryInterval = 10)
        Mono<String> refreshOrFail(@LockKey String id);

        @Locked(value = "feed", retryCount = 1, retryInterval = 10, whenUnavailable = WhenUnavailable.SKIP)
        Mono<String> refreshOrSkip(@LockKey String id);

        @Locked(value = "feed", retryCount = 0, retryInterval = 1)
        Mono<String> refreshRetrying(@LockKey String id, Mono<String> work);
    }

    static final class Given implements Feeds {
        @Override
        public Mono<String> refresh(String id, Mono<String> work) {
            return work;
        }

        @Override
        public Flux<Integer> replay(String id, Flux<Integer> work) {
            return work;
        }

        @Override
        public Mono<String> refreshOrFail(String id) {
            return Mono.just("ran");
        }

        @Override
        public Mono<String> refreshOrSkip(String id) {
            return Mono.just("ran");
        }

        @Override
        public Mono<String> refreshRetrying(String id, Mono<String> work) {
            return work;
        }
    }

    private static long exists(String key) {
        return (Long) probe.call("EXISTS", key);
    }

    private final Feeds feeds = LockedProxies.create(Feeds.class, new Given(), new LockTemplate(client));

    @Test
    void eachSubscriptionHoldsTheLockUntilItsPublisherEnds() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        Sinks.One<String> firstWork = Sinks.one();
        Mono<String> first = feeds.refresh("a", firstWork.asMono().doOnNext(v -> events.add("first ended")));
        CompletableFuture<String> firstResult = first.toFuture();
        assertTrue(Conditions.await(TIMEOUT, () -> exists("feed:a") == 1L), "held while the first publisher runs");
        CompletableFuture<String> second = feeds.refresh("a", Mono.fromCallable(() -> {
            events.add("second ran");
            return "second";
        })).toFuture();
        assertTrue(Conditions.await(TIMEOUT, () -> !((List<?>) probe.call("PUBSUB", "CHANNELS", "*feed:a*")).isEmpty()),
                "the second subscription waits for the lock");
        assertEquals(List.of(), events, "nothing ran while the first publisher holds the lock");
        firstWork.tryEmitValue("first");
        assertEquals("first", firstResult.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals("second", second.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of("first ended", "second ran"), events);
        assertEquals(0L, exists("feed:a"));
    }

    @Test
    void aFluxIsLockedToItsEndAndGivesTheLockBackOnErrorAndCancel() {
        StepVerifier.create(feeds.replay("b", Flux.just(1, 2, 3).doOnNext(i -> assertEquals(1L, exists("feed:b")))))
                .expectNext(1, 2, 3)
                .verifyComplete();
        assertEquals(0L, exists("feed:b"));
        StepVerifier.create(feeds.replay("b", Flux.concat(Flux.just(1), Flux.error(new IllegalStateException("broken")))))
                .expectNext(1)
                .expectErrorMessage("broken")
                .verify(TIMEOUT);
        assertEquals(0L, exists("feed:b"));
        Disposable endless = feeds.replay("b", Flux.never()).subscribe();
        assertTrue(Conditions.await(TIMEOUT, () -> exists("feed:b") == 1L));
        endless.dispose();
        assertTrue(Conditions.await(TIMEOUT, () -> exists("feed:b") == 0L));
    }

    @Test
    void aLockHeldElsewhereRefusesOrSkips() {
        elsewhere.getLock("feed:c").lock();
        try {
            StepVerifier.create(feeds.refreshOrFail("c")).expectError(LockUnavailableException.class).verify(TIMEOUT);
            StepVerifier.create(feeds.refreshOrSkip("c")).verifyComplete();
        } finally {
            elsewhere.getLock("feed:c").unlock();
        }
        StepVerifier.create(feeds.refreshOrFail("c")).expectNext("ran").verifyComplete();
    }

    @Test
    void aRetryThatGetsTheLockRunsTheMethodAndGivesItBack() throws Exception {
        HaspLock held = elsewhere.getLock("feed:d");
        held.lock();
        CompletableFuture<String> result;
        try {
            result = feeds.refreshRetrying("d", Mono.fromCallable(() -> exists("feed:d") == 1L ? "ran holding" : "ran free"))
                    .toFuture();
            assertFalse(result.isDone(), "nothing runs while the lock is held elsewhere");
        } finally {
            held.unlock();
        }
        assertEquals("ran holding", result.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertTrue(Conditions.await(TIMEOUT, () -> exists("feed:d") == 0L));
    }

    /**
     * Subscriptions cancelled at any moment of their retries, while another client takes and frees the lock: the
     * grants that meet a cancel are given back, so once all is over the lock is free and nothing is held here.
     */
    @Test
    void subscriptionsCancelledDuringRetriesLeaveNothingHeld() {
        HaspLock other = elsewhere.getLock("feed:e");
        for (int round = 0; round < 200; round++) {
            other.lock();
            Disposable waiting = feeds.refreshRetrying("e", Mono.never()).subscribe();
            other.unlock();
            long spinUntil = System.nanoTime() + ThreadLocalRandom.current().nextLong(3_000_000);
            while (System.nanoTime() < spinUntil) {
                Thread.onSpinWait();   // a cancel at a random moment, before, during or after the grant
            }
            waiting.dispose();
            assertTrue(Conditions.await(TIMEOUT, () -> exists("feed:e") == 0L), "round " + round + ": the lock was freed");
        }
        assertTrue(Conditions.await(TIMEOUT, () -> client.heldLocks() == 0), "nothing is held here");
    }
}
