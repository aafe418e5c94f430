package io.hasp.lock;

import io.hasp.internal.Futures;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * What the locks composed of other locks ({@link MultiLock}, {@link RedLock}) share: their argument
 * checks, the calling thread's holder id, and how their blocking methods wait on their async ones.
 * Stateless.
 */
final class LockCalls {

    /** The lease argument that asks for the watchdog. */
    static final long WATCHDOG = -1;
    /** The wait argument that asks to wait as long as needed. */
    static final long NO_DEADLINE = -1;

    private LockCalls() {
    }

    /** The calling thread's holder id: the one each member's {@code currentOwner()} uses. */
    @SuppressWarnings("deprecation")  // Thread.threadId() needs Java 19; getId() is the same number
    static long currentHolder() {
        return Thread.currentThread().getId();
    }

    /** Waits for {@code future} without giving up on interrupts (they are kept); rethrows its failure. */
    static <T> T join(CompletableFuture<T> future, String operation) {
        return Futures.join(future, operation);
    }

    /**
     * Refuses a blocking call on one of a client's own threads, before anything is sent: the wait
     * would stall the very replies it waits for, and an attempt started anyway would take locks
     * that nobody waits for.
     */
    static void checkBlockingAllowed(String operation) {
        Futures.checkBlockingAllowed(operation);
    }

    /**
     * Waits for an acquisition; an interrupt cancels it (which gives back what it holds) and is
     * thrown. When the acquisition got everything just as the interrupt came, {@code giveBack}
     * releases it: the caller, told "interrupted", will not unlock.
     */
    static boolean awaitInterruptibly(CompletableFuture<Boolean> acquiring, String operation, Runnable giveBack)
            throws InterruptedException {
        try {
            return acquiring.get();
        } catch (InterruptedException e) {
            if (!acquiring.cancel(false) && !acquiring.isCompletedExceptionally()
                    && Boolean.TRUE.equals(acquiring.getNow(false))) {
                giveBack.run();
            }
            throw e;
        } catch (ExecutionException e) {
            throw Futures.rethrowable(e.getCause());
        }
    }

    /** A lease in nanoseconds. @throws IllegalArgumentException when null, zero or negative */
    static long leaseNanos(Duration leaseTime) {
        if (leaseTime == null || leaseTime.isNegative() || leaseTime.isZero()) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: > 0)");
        }
        return saturated(leaseTime);
    }

    /** A lease in nanoseconds, -1 for the watchdog. @throws IllegalArgumentException when otherwise not positive */
    static long leaseNanos(long leaseTime, TimeUnit unit) {
        if (unit == null) {
            throw new IllegalArgumentException("unit: null");
        }
        if (leaseTime == -1) {
            return WATCHDOG;
        }
        if (leaseTime <= 0) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: > 0 or -1 for the watchdog)");
        }
        return unit.toNanos(leaseTime);
    }

    private static long saturated(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
