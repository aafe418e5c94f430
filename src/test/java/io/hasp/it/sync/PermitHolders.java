package io.hasp.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Threads that each take a permit, count themselves inside, and give it back, many times over: how many were
 * inside at once at the most. Every thread must finish within a minute, without failing.
 */
final class PermitHolders {

    /** One thread's way to take a permit; what it returns gives that permit back. */
    @FunctionalInterface
    interface Taking {
        Giving take() throws Exception;
    }

    /** Gives a permit back. */
    @FunctionalInterface
    interface Giving {
        void giveBack() throws Exception;
    }

    private PermitHolders() {
    }

    /**
     * Runs {@code threads} threads of {@code rounds} rounds each, thread {@code i} taking its permits with
     * {@code taking.apply(i)}.
     *
     * @return the most threads inside at once
     */
    static int mostInside(int threads, int rounds, IntFunction<Taking> taking) throws InterruptedException {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Thread> running = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < threads; i++) {
            Taking take = taking.apply(i);
            Thread thread = new Thread(() -> {
                try {
                    for (int n = 0; n < rounds; n++) {
                        Giving permit = take.take();
                        try {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.onSpinWait();
                            inside.decrementAndGet();
                        } finally {
                            permit.giveBack();
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "permit-holder-" + i);
            running.add(thread);
            thread.start();
        }
        for (Thread thread : running) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertTrue(running.stream().noneMatch(Thread::isAlive), "every holder finished");
        assertEquals(List.of(), failures);
        return most.get();
    }
}
