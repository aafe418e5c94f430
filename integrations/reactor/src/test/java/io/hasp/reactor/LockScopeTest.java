package io.hasp.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.BaseSubscriber;

/**
 * The hand-off of a grant to a subscriber that leaves as it arrives, without Redis (the ITs run it against a
 * server; this race needs more rounds than they can afford): the acquisition's future is
 * completed on one thread while the subscription is disposed on another, many times over. Each grant must reach
 * the subscriber or go back, exactly once; a grant that reaches neither is a lock held by nobody until its lease
 * runs out (with the watchdog, never).
 */
class LockScopeTest {

    private static final int ROUNDS = 20_000;

    @Test
    void aGrantThatMeetsACancelIsDeliveredOrGivenBackExactlyOnce() throws Exception {
        AtomicReference<CompletableFuture<Long>> next = new AtomicReference<>();
        AtomicInteger round = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();   // rounds whose complete() returned, its callbacks run
        Thread completer = new Thread(() -> {
            for (int done = 0; done < ROUNDS; done++) {
                CompletableFuture<Long> grant;
                while ((grant = next.getAndSet(null)) == null) {
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    Thread.onSpinWait();
                }
                round.incrementAndGet();   // the disposing thread starts its side of the race on this
                grant.complete(7L);
                completed.incrementAndGet();
            }
        }, "grant-completer");
        completer.setDaemon(true);
        completer.start();
        int delivered = 0;
        int givenBack = 0;
        int cancelledInTime = 0;
        try {
            for (int i = 0; i < ROUNDS; i++) {
                CompletableFuture<Long> grant = new CompletableFuture<>();
                AtomicInteger got = new AtomicInteger();
                AtomicInteger back = new AtomicInteger();
                BaseSubscriber<Long> subscription = new BaseSubscriber<>() {
                    @Override
                    protected void hookOnNext(Long value) {
                        got.incrementAndGet();   // as usingWhen does: a value that arrives is taken, cancelled or not
                    }
                };
                LockScope.acquisition(() -> grant, value -> value, value -> back.incrementAndGet()).subscribe(subscription);
                int before = round.get();
                next.set(grant);
                while (round.get() == before) {
                    Thread.onSpinWait();
                }
                subscription.dispose();
                while (completed.get() == before) {
                    Thread.onSpinWait();
                }
                if (grant.isCancelled()) {
                    cancelledInTime++;   // hasp's own future gives back a grant that meets its cancel
                    assertEquals(0, got.get() + back.get(), "round " + i + ": a cancelled acquisition yielded a grant");
                    continue;
                }
                if (got.get() + back.get() != 1) {
                    fail("round " + i + ": the grant reached the subscriber " + got.get() + " times and went back "
                            + back.get() + " times (expected: once in all)");
                }
                delivered += got.get();
                givenBack += back.get();
            }
        } finally {
            completer.interrupt();
            completer.join(10_000);
        }
        System.out.printf("LockScopeTest: %d rounds, %d delivered, %d given back, %d cancelled before the grant%n",
                ROUNDS, delivered, givenBack, cancelledInTime);
    }

    /** A call that ends without the lock yields null (a fenced try that did not get it): nothing to give back. */
    @Test
    void aGrantOfNothingIsNeverGivenBack() {
        for (int i = 0; i < 2_000; i++) {
            CompletableFuture<Long> attempt = new CompletableFuture<>() {
                @Override
                public boolean cancel(boolean mayInterruptIfRunning) {
                    return false;   // as a call whose answer is already on its way: it completes all the same
                }
            };
            AtomicInteger back = new AtomicInteger();
            BaseSubscriber<Long> subscriber = new BaseSubscriber<>() {
            };
            LockScope.acquisition(() -> attempt, value -> (Long) null, value -> back.incrementAndGet()).subscribe(subscriber);
            if (i % 2 == 0) {
                subscriber.dispose();
                attempt.complete(0L);
            } else {
                attempt.complete(0L);
                subscriber.dispose();
            }
            assertEquals(0, back.get(), "round " + i + ": a null grant was given back");
        }
    }
}
