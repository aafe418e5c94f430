package io.hasp.spring.integration;

import io.hasp.lock.Blocking;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.scheduling.TaskScheduler;

/**
 * One key's lock of a {@link HaspLockRegistry}: the hasp lock {@code <registryKey>:<key>}, held by the
 * calling thread as the registry's own holder ({@code <clientId>#registry-<n>:<thread id>}), so that two
 * registries never share a hold. Remembers which threads of this process hold it through the registry,
 * how often, and with what time to live, to answer unlocks and renewals of threads that hold nothing at
 * once and to renew on the registry's scheduler. Thread-safe.
 */
final class RegistryLock implements DistributedLock {

    /** What the registry's blocking calls are, in the message that refuses one on a hasp client thread. */
    private static final String OPERATION = "a LockRegistry lock call";

    private final HaspLockRegistry registry;
    private final String key;
    private final HaspLock lock;
    /** The holds of this process through this registry, by thread id; each touched by its own thread. */
    private final Map<Long, Held> holders = new ConcurrentHashMap<>();
    private volatile long lockedAt = System.currentTimeMillis();

    /**
     * One thread's hold: its count, its time to live (null: the watchdog's), how hasp reports its end,
     * and its renewal task; touched by its own thread only (the renewal task only stops itself).
     */
    private static final class Held {
        /** Levels of the current hold. */
        int count = 1;
        /** Levels taken in an earlier hold that ended (lost, expired) before the thread took the lock again. */
        int ended;
        final Duration ttl;
        final CompletableFuture<HoldEnd> end;
        volatile ScheduledFuture<?> renewal;

        Held(Duration ttl, CompletableFuture<HoldEnd> end) {
            this.ttl = ttl;
            this.end = end;
        }

        void stopRenewal() {
            ScheduledFuture<?> task = renewal;
            if (task != null) {
                task.cancel(false);
            }
        }
    }

    RegistryLock(HaspLockRegistry registry, String key, HaspLock lock) {
        this.registry = registry;
        this.key = key;
        this.lock = lock;
    }

    String key() {
        return key;
    }

    long lockedAt() {
        return lockedAt;
    }

    /** Whether some thread of this process holds the lock through this registry. */
    boolean isAcquiredInThisProcess() {
        for (Held held : holders.values()) {
            if (held.count > 0) {
                return true;
            }
        }
        return false;
    }

    /** Takes the lock with the registry's time to live (or the watchdog), waiting as long as needed; interrupts are kept, not thrown. */
    @Override
    public void lock() {
        acquireUninterruptibly(registry.expireAfter());
    }

    /** Takes the lock with time to live {@code ttl}, waiting as long as needed; interrupts are kept, not thrown. */
    @Override
    public void lock(Duration ttl) {
        acquireUninterruptibly(HaspLockRegistry.checkTtl(registry.client(), "ttl", ttl));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before locking " + lock.getName());
        }
        acquire(null, registry.expireAfter(), true);
    }

    /** One attempt, no wait. */
    @Override
    public boolean tryLock() {
        try {
            return acquire(Duration.ZERO, registry.expireAfter(), false);
        } catch (InterruptedException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (unit == null) {
            throw new IllegalArgumentException("unit: null");
        }
        return waitFor(Duration.ofNanos(unit.toNanos(Math.max(0, time))), registry.expireAfter());
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        return waitFor(waitTime, HaspLockRegistry.checkTtl(registry.client(), "ttl", ttl));
    }

    /** Tries for at most {@code waitTime}, interruptibly. */
    private boolean waitFor(Duration waitTime, Duration ttl) throws InterruptedException {
        if (waitTime == null) {
            throw new IllegalArgumentException("waitTime: null");
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before locking " + lock.getName());
        }
        return acquire(waitTime.isNegative() ? Duration.ZERO : waitTime, ttl, true);
    }

    private void acquireUninterruptibly(Duration ttl) {
        try {
            acquire(null, ttl, false);
        } catch (InterruptedException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /**
     * Acquires for the calling thread and records the hold.
     *
     * @param wait how long to try; null for no deadline
     * @param ttl the hold's time to live; null for the watchdog
     * @param interruptible whether an interrupt ends the wait (the acquisition is cancelled, and a hold
     *     granted meanwhile given back) or is kept for later
     * @return whether the lock is held now
     * @throws CannotAcquireLockException when Redis answered with an error or the client closed
     */
    private boolean acquire(Duration wait, Duration ttl, boolean interruptible) throws InterruptedException {
        Blocking.checkAllowed(OPERATION);
        LockOwner owner = owner();
        CompletableFuture<?> acquiring = start(wait, ttl, owner);
        boolean retried = false;
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    Object answer = acquiring.get();
                    boolean acquired = answer == null || Boolean.TRUE.equals(answer);
                    if (interruptible && Thread.interrupted()) {
                        // The answer came as an interrupt did, and the wait returned it keeping the interrupt: the
                        // interrupt wins, as it would have a moment earlier, and a grant goes back first.
                        if (acquired) {
                            giveBack(owner);
                        }
                        throw new InterruptedException("interrupted while locking " + lock.getName());
                    }
                    if (acquired) {
                        held(owner, ttl);
                    }
                    return acquired;
                } catch (InterruptedException e) {
                    if (!interruptible) {
                        interrupted = true;
                        continue;
                    }
                    if (!acquiring.cancel(false) && !acquiring.isCompletedExceptionally()) {
                        // Too late to cancel: its answer is here or on its way. Wait for it (not "not done yet" read
                        // as a grant), and give a grant back: the caller will not unlock.
                        Object answer;
                        try {
                            answer = Blocking.join(acquiring, OPERATION);
                        } catch (RuntimeException failed) {
                            answer = Boolean.FALSE;
                        }
                        if (answer == null || Boolean.TRUE.equals(answer)) {
                            giveBack(owner);
                        }
                    }
                    throw e;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof HoldLostException && !retried) {
                        // The thread's earlier hold had ended unnoticed, and hasp refused to add a level to it (and
                        // ended it now): take the lock afresh, as after an ended hold hasp saw; the outer unlock says so.
                        retried = true;
                        acquiring = start(wait, ttl, owner);
                        continue;
                    }
                    throw new CannotAcquireLockException("Failed to lock " + lock.getName() + " for " + owner,
                            e.getCause());
                } catch (CancellationException e) {
                    throw new CannotAcquireLockException("Failed to lock " + lock.getName() + " for " + owner
                            + ": the acquisition was cancelled (the client closed?)", e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private CompletableFuture<?> start(Duration wait, Duration ttl, LockOwner owner) {
        if (wait == null) {
            return ttl == null ? lock.lockAsync(owner) : lock.lockAsync(ttl, owner);
        }
        return ttl == null ? lock.tryLockAsync(wait, owner) : lock.tryLockAsync(wait, ttl, owner);
    }

    /**
     * Releases a grant its caller will never know of, before the caller goes on. Should that unlock get
     * no answer within hasp's retry budget, the grant stays until the client closes (or its lease ends).
     */
    private void giveBack(LockOwner owner) {
        try {
            join(lock.unlockAsync(owner));
        } catch (RuntimeException e) {
            // Nothing better to do for a caller that was interrupted: see above.
        }
    }

    /** Records a grant: a new level of the thread's hold, or a new hold (with its renewal task). */
    private void held(LockOwner owner, Duration ttl) {
        lockedAt = System.currentTimeMillis();
        Held held = holders.get(owner.holderId());
        if (held != null && held.count > 0 && !held.end.isDone()) {
            held.count++;
            return;
        }
        // A first hold, or one taken again after the earlier one ended: hasp granted a hold of one level.
        Held fresh = new Held(ttl, lock.holdEnd(owner));
        if (held != null) {
            held.stopRenewal();
            fresh.ended = held.ended + held.count;
        }
        holders.put(owner.holderId(), fresh);
        TaskScheduler scheduler = registry.renewalScheduler();
        if (ttl != null && scheduler != null) {
            try {
                fresh.renewal = scheduler.scheduleWithFixedDelay(() -> lock.extendAsync(ttl, owner).whenComplete(
                        (stillHeld, error) -> {
                            if (Boolean.FALSE.equals(stillHeld)) {
                                fresh.stopRenewal();   // the hold ended; its unlock will say so
                            }
                        }), ttl.dividedBy(3));
            } catch (RuntimeException notScheduled) {
                holders.remove(owner.holderId());
                giveBack(owner);
                throw new CannotAcquireLockException("Failed to lock " + lock.getName() + ": its renewal could not"
                        + " be scheduled on " + scheduler, notScheduled);
            }
        }
    }

    /**
     * Gives back one hold of the calling thread; frees the lock with the last one.
     *
     * @throws IllegalStateException when the calling thread does not hold the lock through this registry
     * @throws ConcurrentModificationException when the hold had ended before the unlock (its time to
     *     live ran out, the key was deleted or lost): what was done since was not protected
     * @throws io.hasp.RedisException when the unlock got no answer within hasp's retry budget: the thread
     *     still holds the lock (hasp keeps it) and may unlock again
     */
    @Override
    public void unlock() {
        Blocking.checkAllowed(OPERATION);
        LockOwner owner = owner();
        Held held = holders.get(owner.holderId());
        if (held == null) {
            throw new IllegalStateException("You do not own lock at " + lock.getName() + " (" + owner
                    + " holds nothing of it through " + registry + ")");
        }
        if (held.count == 0) {
            forget(owner, held, 1);
            throw new ConcurrentModificationException("An earlier hold of " + lock.getName() + " by " + owner
                    + " ended before this unlock: the integrity of the data it protected may have been compromised");
        }
        if (held.count == 1) {
            held.stopRenewal();
        }
        try {
            join(lock.unlockAsync(owner));
            held.count--;
        } catch (HoldLostException e) {
            held.count = 0;
            throw new ConcurrentModificationException("The hold of " + lock.getName() + " ended before its unlock ("
                    + e.getMessage() + "): the integrity of the data it protected may have been compromised", e);
        } catch (IllegalMonitorStateException e) {
            held.count = 0;
            throw new IllegalStateException("You do not own lock at " + lock.getName() + ": " + e.getMessage(), e);
        } finally {
            if (held.count == 0) {
                forget(owner, held, 0);
            }
        }
    }

    /** The thread's hold ended: forgets {@code endedLevels} of its ended levels, and the hold once none is left. */
    private void forget(LockOwner owner, Held held, int endedLevels) {
        held.ended -= endedLevels;
        if (held.ended <= 0) {
            holders.remove(owner.holderId());
        }
        registry.releasedOne();
    }

    /**
     * Resets the calling thread's time to live to {@code ttl}, or to the one its hold was taken with
     * when null; a watchdog hold asked for no time to live is only checked.
     */
    void renew(Duration ttl) {
        LockOwner owner = owner();
        Held held = holders.get(owner.holderId());
        if (held == null || held.count == 0) {
            throw new IllegalStateException("Could not renew lock at " + lock.getName() + ": " + owner
                    + " holds nothing of it through " + registry);
        }
        if (held.ttl == null) {
            if (ttl != null) {
                throw new IllegalStateException("Could not renew lock at " + lock.getName() + " to " + ttl
                        + ": hasp's watchdog keeps this hold (taken without a time to live); take it with"
                        + " lock(ttl) or tryLock(wait, ttl) to set one");
            }
            if (!join(lock.isHeldByAsync(owner))) {
                throw new IllegalStateException("Could not renew lock at " + lock.getName() + ": the hold of " + owner
                        + " had ended");
            }
            return;
        }
        if (!join(lock.extendAsync(ttl == null ? held.ttl : ttl, owner))) {
            held.stopRenewal();
            throw new IllegalStateException("Could not renew lock at " + lock.getName() + ": the hold of " + owner
                    + " had ended (its time to live ran out, or the key was deleted or lost)");
        }
    }

    /** Conditions are not supported. */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("Conditions are not supported by hasp's distributed locks");
    }

    /** The calling thread as this registry's holder. */
    @SuppressWarnings("deprecation")  // Thread.threadId() needs Java 19; getId() is the same number
    private LockOwner owner() {
        return LockOwner.of(registry.holderClientId(), Thread.currentThread().getId());
    }

    private static <T> T join(CompletableFuture<T> future) {
        return Blocking.join(future, OPERATION);
    }

    @Override
    public String toString() {
        return "RegistryLock[" + lock.getName() + ", " + registry + ", held here by " + holders.size() + " thread(s)]";
    }
}
