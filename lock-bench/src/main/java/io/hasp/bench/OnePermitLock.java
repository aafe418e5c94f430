package io.hasp.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A semaphore of one permit seen as a {@link Lock}, so that {@link HotLock}'s rows can run a hot semaphore the way
 * they run a hot lock: {@code lock()} acquires the permit, {@code unlock()} gives it back. Only the calls the rows
 * make are supported.
 */
final class OnePermitLock implements Lock {

    /** Takes the permit, waiting as long as it takes. */
    interface Acquire {
        void run() throws InterruptedException;
    }

    private final Acquire acquire;
    private final Runnable release;

    OnePermitLock(Acquire acquire, Runnable release) {
        this.acquire = acquire;
        this.release = release;
    }

    @Override
    public void lock() {
        try {
            acquire.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the permit", e);
        }
    }

    @Override
    public void unlock() {
        release.run();
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire.run();
    }

    @Override
    public boolean tryLock() {
        throw new UnsupportedOperationException("not used by the rows");
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the rows");
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("a semaphore has no conditions");
    }
}
