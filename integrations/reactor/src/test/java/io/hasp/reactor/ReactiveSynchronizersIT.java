package io.hasp.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
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
 * hasp's synchronizers for Reactor on a real redis-server: permits taken for a subscription's work
 * and given back on complete, error and cancel; a cancelled wait takes nothing; the latch opens its
 * waiting subscriptions.
 */
@ExtendWith(RedisServerExtension.class)
class ReactiveSynchronizersIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static HaspClient client;
    private static HaspReactiveClient hasp;

    @BeforeAll
    static void start(RedisServer server) {
        client = HaspClient.create(server.uri());
        hasp = HaspReactiveClient.of(client);
    }

    @AfterAll
    static void stop() {
        client.close();
    }

    @Test
    void twoPermitsLetTwoSubscriptionsInAndTheThirdWaits() throws Exception {
        ReactiveSemaphore semaphore = hasp.getSemaphore("rx:semaphore");
        assertEquals(true, semaphore.trySetPermits(2).block(TIMEOUT));
        Sinks.Empty<Void> release = Sinks.empty();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Flux<Integer> work = Flux.defer(() -> {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            return release.asMono().then(Mono.fromCallable(inside::getAndDecrement));
        });
        CompletableFuture<Void> all = Flux.merge(semaphore.withPermits(1, work), semaphore.withPermits(1, work),
                semaphore.withPermits(1, work)).then().toFuture();
        assertTrue(Conditions.await(TIMEOUT, () -> inside.get() == 2));
        assertEquals(0, semaphore.availablePermits().block(TIMEOUT));
        StepVerifier.create(semaphore.withPermits(1, Duration.ofMillis(100), Mono.just("late")))
                .expectError(TimeoutException.class)
                .verify(TIMEOUT);
        release.tryEmitEmpty();
        all.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(2, most.get(), "never more than the two permits' holders inside");
        assertEquals(2, semaphore.availablePermits().block(TIMEOUT));
    }

    @Test
    void cancelledHoldersAndWaitersGiveEveryPermitBack() {
        ReactiveSemaphore semaphore = hasp.getSemaphore("rx:semaphore:cancel");
        semaphore.trySetPermits(1).block(TIMEOUT);
        Disposable holder = semaphore.withPermits(1, Mono.never()).subscribe();
        assertTrue(Conditions.await(TIMEOUT, () -> semaphore.availablePermits().block(TIMEOUT) == 0));
        Disposable waiter = semaphore.withPermits(1, Mono.fromRunnable(() -> {
            throw new AssertionError("the cancelled waiter ran");
        })).subscribe();
        waiter.dispose();
        holder.dispose();
        assertTrue(Conditions.await(TIMEOUT, () -> semaphore.availablePermits().block(TIMEOUT) == 1));
        StepVerifier.create(semaphore.withPermits(1, Mono.error(new IllegalStateException("work failed"))))
                .expectErrorMessage("work failed")
                .verify(TIMEOUT);
        assertEquals(1, semaphore.availablePermits().block(TIMEOUT));
        assertEquals(true, semaphore.tryAcquire(1).block(TIMEOUT));
        assertEquals(false, semaphore.tryAcquire(1, Duration.ofMillis(50)).block(TIMEOUT));
        semaphore.release(1).block(TIMEOUT);
    }

    @Test
    void aPermitExpirableSemaphoreLeasesAPermitForTheWork() {
        ReactivePermitExpirableSemaphore semaphore = hasp.getPermitExpirableSemaphore("rx:expirable");
        semaphore.trySetPermits(1).block(TIMEOUT);
        String id = semaphore.withPermit(permit -> semaphore.availablePermits().map(free -> free == 0 ? permit : "")).blockLast(TIMEOUT);
        assertNotNull(id);
        assertFalse(id.isEmpty(), "the permit was held during the work");
        assertEquals(1, semaphore.availablePermits().block(TIMEOUT));
        String leased = semaphore.tryAcquire(Duration.ZERO, Duration.ofSeconds(10)).block(TIMEOUT);
        assertNotNull(leased);
        StepVerifier.create(semaphore.tryAcquire(Duration.ZERO, Duration.ofSeconds(10))).verifyComplete();
        semaphore.release(leased).block(TIMEOUT);
    }

    @Test
    void theLatchOpensItsWaitingSubscriptions() throws Exception {
        ReactiveCountDownLatch latch = hasp.getCountDownLatch("rx:latch");
        assertEquals(true, latch.trySetCount(2).block(TIMEOUT));
        CompletableFuture<Void> waiting = latch.await().toFuture();
        assertEquals(false, latch.await(Duration.ofMillis(50)).block(TIMEOUT));
        latch.countDown().block(TIMEOUT);
        assertEquals(1L, latch.count().block(TIMEOUT));
        assertFalse(waiting.isDone());
        latch.countDown().block(TIMEOUT);
        waiting.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(0L, latch.count().block(TIMEOUT));
    }
}
