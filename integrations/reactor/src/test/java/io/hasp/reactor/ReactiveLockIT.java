package io.hasp.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * hasp's locks for Reactor on a real redis-server: the subscription is the owner (re-entry across
 * threads, another subscription excluded, a blocking caller of the same client excluded), the lock
 * is given back on complete, error and cancel, a cancelled wait takes nothing, the watchdog keeps a
 * long pipeline's lock, and nothing blocks a Reactor thread (BlockHound is installed for the class).
 */
@ExtendWith(RedisServerExtension.class)
class ReactiveLockIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static HaspClient client;
    private static HaspClient elsewhere;
    private static HaspReactiveClient locks;
    private static RedisProbe probe;

    @BeforeAll
    static void start(RedisServer server) {
        BlockHound.install();
        client = HaspClient.create(server.uri());
        elsewhere = HaspClient.create(server.uri());
        locks = HaspReactiveClient.of(client);
        probe = server.probe();
    }

    @AfterAll
    static void stop() {
        client.close();
        elsewhere.close();
        probe.close();
    }

    private static long exists(String key) {
        return (Long) probe.call("EXISTS", key);
    }

    @Test
    void aNestedWithLockReentersOnAnotherThread() {
        ReactiveLock lock = locks.getLock("rx:reenter");
        List<String> threads = new CopyOnWriteArrayList<>();
        Integer innerCount = lock.withLock(Mono.fromRunnable(() -> threads.add(Thread.currentThread().getName()))
                        .then(lock.withLock(Mono.defer(() -> {
                            threads.add(Thread.currentThread().getName());
                            return lock.holdCount();
                        }).subscribeOn(Schedulers.parallel()))))
                .block(TIMEOUT);
        assertEquals(2, innerCount);
        assertEquals(2, threads.size());
        assertNotEquals(threads.get(0), threads.get(1), "the inner work ran on another thread");
        assertEquals(0L, exists("rx:reenter"), "both holds given back");
    }

    @Test
    void theDocsSampleDeductsOncePerSubscription() {
        AtomicInteger stock = new AtomicInteger(10);
        // begin-sample: reactive-with-lock
        HaspReactiveClient locks = HaspReactiveClient.of(client);
        ReactiveLock lock = locks.getLock("stock:sku-42");
        Mono<Integer> deduct = lock.withLock(Mono.fromCallable(stock::decrementAndGet));
        // end-sample: reactive-with-lock
        List<Integer> left = Flux.range(0, 5).flatMap(i -> deduct).collectSortedList().block(TIMEOUT);
        assertEquals(List.of(5, 6, 7, 8, 9), left, "each subscription deducted once");
        assertEquals(0L, exists("stock:sku-42"));
    }

    @Test
    void anotherSubscriptionAndABlockingCallerAreExcluded() throws Exception {
        ReactiveLock lock = locks.getLock("rx:exclude");
        Sinks.Empty<Void> release = Sinks.empty();
        Sinks.Empty<Void> held = Sinks.empty();
        Disposable first = lock.withLock(Mono.fromRunnable(held::tryEmitEmpty).then(release.asMono())).subscribe();
        try {
            held.asMono().block(TIMEOUT);
            assertEquals(false, SubscriptionOwner.scope(lock.tryLock()).block(TIMEOUT));
            assertFalse(lock.haspLock().tryLock(), "a thread of the same client is another owner");
            StepVerifier.create(lock.withLock(Duration.ofMillis(100), Mono.just("late")))
                    .expectErrorSatisfies(e -> {
                        assertInstanceOf(TimeoutException.class, e);
                        assertTrue(e.getMessage().contains("rx:exclude"), e.getMessage());
                    })
                    .verify(TIMEOUT);
            CompletableFuture<String> second = lock.withLock(Mono.just("second")).toFuture();
            assertTrue(Conditions.await(TIMEOUT, () -> !channels("*rx:exclude*").isEmpty()), "the second waits");
            assertFalse(second.isDone(), "the second subscription waits while the first holds");
            release.tryEmitEmpty();
            assertEquals("second", second.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        } finally {
            first.dispose();
        }
        assertTrue(Conditions.await(TIMEOUT, () -> exists("rx:exclude") == 0L));
    }

    @Test
    void anAcquisitionThatCompletesAsItsSubscriberLeavesIsGivenBack() {
        HaspLock haspLock = client.getLock("rx:late-grant");
        LockOwner owner = haspLock.owner(LockOwner.newHolderId());
        CompletableFuture<Void> granted = haspLock.lockAsync(owner);
        granted.join();
        assertEquals(1L, exists("rx:late-grant"));
        // The grant is there before the subscriber, which cancels as soon as it subscribes: the value
        // comes after the cancel, never reaches the subscriber, and must be given back.
        LockScope.acquisition(() -> granted, ignored -> Boolean.TRUE, ignored -> haspLock.unlockAsync(owner))
                .subscribe(new BaseSubscriber<Boolean>() {
                    @Override
                    protected void hookOnSubscribe(Subscription subscription) {
                        cancel();
                    }
                });
        assertTrue(Conditions.await(TIMEOUT, () -> exists("rx:late-grant") == 0L), "the late grant was given back");
    }

    @Test
    void innerWorksInNewScopesExcludeEachOther() {
        ReactiveLock outer = locks.getLock("rx:outer");
        ReactiveLock inner = locks.getLock("rx:inner");
        AtomicInteger counter = new AtomicInteger();
        outer.withLock(Flux.range(0, 4).flatMap(i -> SubscriptionOwner.newScope(inner.withLock(
                        Mono.fromCallable(counter::get).delayElement(Duration.ofMillis(5)).doOnNext(seen -> counter.set(seen + 1))))))
                .then()
                .block(TIMEOUT);
        assertEquals(4, counter.get(), "four concurrent inner works, each its own owner, excluded each other");
        assertEquals(0L, exists("rx:outer") + exists("rx:inner"));
    }

    @Test
    void subscriptionsOnManyThreadsKeepACounterExact() {
        ReactiveLock lock = locks.getLock("rx:counter");
        AtomicInteger counter = new AtomicInteger();
        Flux.range(0, 8)
                .flatMap(subscriber -> Flux.range(0, 25).concatMap(i -> lock.withLock(Mono.fromCallable(counter::get)
                        .delayElement(Duration.ofMillis(1))
                        .doOnNext(seen -> counter.set(seen + 1)))))
                .subscribeOn(Schedulers.parallel())
                .then()
                .block(Duration.ofMinutes(2));
        assertEquals(200, counter.get(), "read, a hop to another thread, write: exact only under the lock");
        assertEquals(0L, exists("rx:counter"));
    }

    @Test
    void anErrorOfTheWorkGivesTheLockBack() {
        ReactiveLock lock = locks.getLock("rx:error");
        StepVerifier.create(lock.withLock(Mono.error(new IllegalStateException("work failed"))))
                .expectErrorMessage("work failed")
                .verify(TIMEOUT);
        StepVerifier.create(lock.withLock(Flux.just(1, 2).concatWith(Mono.error(new IllegalStateException("later")))))
                .expectNext(1, 2)
                .expectErrorMessage("later")
                .verify(TIMEOUT);
        assertEquals(0L, exists("rx:error"));
    }

    @Test
    void cancellingAHoldingSubscriptionGivesTheLockBack() {
        ReactiveLock lock = locks.getLock("rx:cancel-held");
        Disposable holding = lock.withLock(Mono.never()).subscribe();
        assertTrue(Conditions.await(TIMEOUT, () -> exists("rx:cancel-held") == 1L));
        holding.dispose();
        assertTrue(Conditions.await(TIMEOUT, () -> exists("rx:cancel-held") == 0L));
    }

    @Test
    void aCancelledWaitTakesNothingWhenTheLockIsFreed() throws Exception {
        String name = "rx:cancel-wait";
        HaspLock other = elsewhere.getLock(name);
        other.lock();
        AtomicBoolean ran = new AtomicBoolean();
        Disposable waiting = locks.getLock(name).withLock(Mono.fromRunnable(() -> ran.set(true))).subscribe();
        try {
            assertTrue(Conditions.await(TIMEOUT, () -> !channels("*" + name + "*").isEmpty()),
                    "the subscription waits on the lock's channels");
        } finally {
            waiting.dispose();
            other.unlock();
        }
        HaspLock third = elsewhere.getLock(name);
        assertTrue(third.tryLock(10, TimeUnit.SECONDS), "the cancelled waiter did not take the freed lock");
        third.unlock();
        assertFalse(ran.get());
        assertEquals(0, client.heldLocks());
    }

    private static List<?> channels(String pattern) {
        return (List<?>) probe.call("PUBSUB", "CHANNELS", pattern);
    }

    @Test
    void theWatchdogKeepsALongPipelinesLock(RedisServer server) {
        try (HaspClient shortLeases = HaspClient.create(HaspConfig.builder().uri(server.uri())
                .watchdogLease(Duration.ofSeconds(1)).build())) {
            ReactiveLock lock = HaspReactiveClient.of(shortLeases).getLock("rx:watchdog");
            Boolean stillHeld = lock.withLock(Mono.delay(Duration.ofMillis(3500)).then(lock.isHeld())).block(TIMEOUT);
            assertEquals(true, stillHeld, "held after three and a half leases");
            assertEquals(0L, exists("rx:watchdog"));
        }
    }

    @Test
    void lockAndUnlockTakeTheOwnerFromTheScope() {
        ReactiveLock lock = locks.getLock("rx:scope");
        // begin-sample: reactive-scope
        Mono<Integer> twice = SubscriptionOwner.scope(lock.lock()
                .then(lock.lock())
                .then(lock.holdCount())
                .flatMap(held -> lock.unlock().then(lock.unlock()).thenReturn(held)));
        // end-sample: reactive-scope
        Integer count = twice.block(TIMEOUT);
        assertEquals(2, count);
        assertEquals(0L, exists("rx:scope"));
        StepVerifier.create(lock.lock())
                .expectErrorSatisfies(e -> {
                    assertInstanceOf(IllegalStateException.class, e);
                    assertTrue(e.getMessage().contains("SubscriptionOwner.scope"), e.getMessage());
                })
                .verify(TIMEOUT);
        StepVerifier.create(SubscriptionOwner.scope(lock.unlock()))
                .expectError(IllegalMonitorStateException.class)
                .verify(TIMEOUT);
    }

    @Test
    void eachSubscriptionIsAnOwnerOfItsOwn() {
        Mono<Long> holder = SubscriptionOwner.scope(SubscriptionOwner.holderId());
        Long first = holder.block(TIMEOUT);
        Long second = holder.block(TIMEOUT);
        assertNotNull(first);
        assertNotEquals(first, second);
        assertTrue(first < 0 && second < 0, "never a thread's id");
        Long nested = SubscriptionOwner.scope(SubscriptionOwner.holderId()
                .flatMap(outer -> SubscriptionOwner.scope(SubscriptionOwner.holderId()).map(inner -> inner - outer)))
                .block(TIMEOUT);
        assertEquals(0L, nested, "a scope inside a scope keeps the outer owner");
    }

    @Test
    void aFencedLocksWorkGetsAGrowingToken() {
        ReactiveFencedLock lock = locks.getFencedLock("rx:fenced");
        Long first = lock.withToken(Mono::just).block(TIMEOUT);
        Long second = lock.withToken(token -> lock.token().map(seen -> seen.equals(token) ? token : -1L)).block(TIMEOUT);
        assertNotNull(first);
        assertTrue(second > first, first + " then " + second);
        Long explicit = SubscriptionOwner.scope(lock.tryLockAndGetToken(Duration.ZERO, Duration.ofSeconds(10))
                .flatMap(token -> lock.asLock().unlock().thenReturn(token))).block(TIMEOUT);
        assertTrue(explicit > second);
        assertEquals(0L, exists("rx:fenced"));
    }

    @Test
    void aMultiLockHoldsEveryMemberForItsWork() {
        ReactiveMultiLock both = locks.getMultiLock(locks.getLock("rx:multi:a"), locks.getLock("rx:multi:b"));
        Long held = both.withLock(Mono.fromCallable(() -> exists("rx:multi:a") + exists("rx:multi:b"))
                .subscribeOn(Schedulers.boundedElastic())).block(TIMEOUT);
        assertEquals(2L, held);
        assertEquals(0L, exists("rx:multi:a") + exists("rx:multi:b"));
    }

    @Test
    void readersShareAndAWriterWaits() {
        ReactiveReadWriteLock lock = locks.getReadWriteLock("rx:rw");
        Sinks.Empty<Void> release = Sinks.empty();
        Sinks.Empty<Void> held = Sinks.empty();
        Disposable reader = lock.readLock().withLock(Mono.fromRunnable(held::tryEmitEmpty).then(release.asMono())).subscribe();
        try {
            held.asMono().block(TIMEOUT);
            assertEquals("shared", lock.readLock().withLock(Duration.ofSeconds(5), Mono.just("shared")).block(TIMEOUT));
            assertEquals(false, SubscriptionOwner.scope(lock.writeLock().tryLock()).block(TIMEOUT));
            CompletableFuture<String> writer = lock.writeLock().withLock(Mono.just("written")).toFuture();
            assertTrue(Conditions.await(TIMEOUT, () -> !channels("*rx:rw*").isEmpty()), "the writer waits");
            assertFalse(writer.isDone(), "the writer waits while a reader holds");
            release.tryEmitEmpty();
            assertEquals("written", writer.join());
        } finally {
            reader.dispose();
        }
        assertEquals(false, lock.isLocked().block(TIMEOUT));
    }

    @Test
    void noCallBlocksAReactorThread() {
        StepVerifier.create(Mono.fromCallable(() -> {
                    Thread.sleep(1);
                    return 0;
                }).subscribeOn(Schedulers.parallel()))
                .expectError(BlockingOperationError.class)
                .verify(TIMEOUT);

        ReactiveLock lock = locks.getLock("rx:nonblocking");
        ReactiveFencedLock fenced = locks.getFencedLock("rx:nonblocking:fenced");
        AtomicInteger done = new AtomicInteger();
        Flux.merge(IntStream.range(0, 8).mapToObj(i -> Flux.merge(
                        lock.withLock(Mono.fromRunnable(done::incrementAndGet)),
                        SubscriptionOwner.scope(lock.tryLock(Duration.ofSeconds(10)).flatMap(held -> lock.unlock())),
                        fenced.withToken(token -> Mono.fromRunnable(done::incrementAndGet)),
                        lock.isLocked().then())
                .subscribeOn(Schedulers.parallel())).toList())
                .then()
                .block(TIMEOUT);
        assertEquals(16, done.get());
    }
}
