package io.hasp.it.history;

import io.hasp.HaspClient;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.lock.LockOwner;
import io.hasp.lock.rw.HaspReadWriteLock;
import io.hasp.lock.rw.HaspReadWriteLocks;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.history.HistoryRecorder;
import io.hasp.testing.history.LockMode;
import io.hasp.testing.history.Operation;
import io.hasp.testing.history.OperationType;
import io.hasp.testing.history.PendingOperation;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One round of each workload a {@link HistoryWorker} runs: what one owner does between two looks at the clock, every
 * call recorded with its outcome. A call that fails in a way that leaves it open (a lost reply, a timeout) is recorded
 * as unknown, as a history checker must treat it.
 */
final class HistoryRounds {

    /** How long a caller waits for the lock in one round. */
    static final Duration WAIT = Duration.ofSeconds(2);

    private static final long ANSWER_SECONDS = 30;

    private final HaspClient client;
    private final HistoryRecorder recorder;
    private final String name;
    private final Duration lease;
    private final Duration hold;
    private final AtomicLong grants = new AtomicLong();

    HistoryRounds(HaspClient client, HistoryRecorder recorder, String name, Duration lease, Duration hold) {
        this.client = client;
        this.recorder = recorder;
        this.name = name;
        this.lease = lease;
        this.hold = hold;
    }

    /** The round of {@code workload} for {@code owner}. */
    Runnable round(HistoryWorkload workload, LockOwner owner, FencedResource resource) {
        return switch (workload) {
            case FENCED -> () -> fenced(client.getFencedLock(name), resource, owner);
            case REENTRANT -> () -> reentrant(client.getLock(name), owner);
            case READ_WRITE -> () -> readWrite(HaspReadWriteLocks.of(client).get(name), owner);
            case FAIR -> () -> exclusive(client.getFairLock(name), owner, Duration.ofSeconds(10));
            case SEMAPHORE -> () -> permit(client.getSemaphore(name), owner.field());
            case EXPIRABLE_SEMAPHORE -> () -> permit(client.getPermitExpirableSemaphore(name), owner.field());
        };
    }

    /** One acquire, write of the token to {@code resource} and release by {@code owner}. */
    private void fenced(FencedLock lock, FencedResource resource, LockOwner owner) {
        PendingOperation acquire = recorder.begin(owner.field(), name, OperationType.ACQUIRE);
        OptionalLong token;
        try {
            token = lock.tryLockAndGetTokenAsync(WAIT, lease, owner).get(ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            acquire.unknown();   // the grant may have landed (it is rolled back, or runs out with its lease)
            return;
        }
        if (token.isEmpty()) {
            acquire.fail();
            return;
        }
        acquire.ok(token.getAsLong(), acquire.invokedNanos() + lease.toNanos());
        grants.incrementAndGet();
        try {
            resource.write(client.commands(), token.getAsLong(), owner.field()).get(ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            // the write's outcome does not matter to the lock's history
        }
        release(lock, owner, LockMode.EXCLUSIVE);
    }

    /** One acquire, re-entry and two releases by {@code owner}. */
    private void reentrant(HaspLock lock, LockOwner owner) {
        if (!acquire(lock, owner, LockMode.EXCLUSIVE, WAIT)) {
            return;
        }
        PendingOperation reenter = recorder.begin(owner.field(), name, OperationType.REENTER);
        try {
            if (lock.tryLockAsync(Duration.ZERO, lease, owner).get(ANSWER_SECONDS, TimeUnit.SECONDS)) {
                reenter.ok();
                // A re-entry sets the lease anew: the hold now lasts until at least the re-entry's call plus it.
                recorder.renewed(owner.field(), name, LockMode.EXCLUSIVE, reenter.invokedNanos() + lease.toNanos());
            } else {
                reenter.fail();
            }
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            reenter.unknown();
        }
        release(lock, owner, LockMode.EXCLUSIVE);
        release(lock, owner, LockMode.EXCLUSIVE);
    }

    /** A read hold three rounds in four, else a write hold, each kept for the hold time. */
    private void readWrite(HaspReadWriteLock lock, LockOwner owner) {
        boolean write = ThreadLocalRandom.current().nextInt(4) == 0;
        HaspLock mode = write ? lock.writeLock() : lock.readLock();
        LockMode recorded = write ? LockMode.EXCLUSIVE : LockMode.SHARED;
        if (acquire(mode, owner, recorded, WAIT)) {
            holdFor();
            release(mode, owner, recorded);
        }
    }

    /** An exclusive hold kept for the hold time. */
    private void exclusive(HaspLock lock, LockOwner owner, Duration wait) {
        if (acquire(lock, owner, LockMode.EXCLUSIVE, wait)) {
            holdFor();
            release(lock, owner, LockMode.EXCLUSIVE);
        }
    }

    /** One permit with the lease, kept for the hold time and given back; recorded under {@code owner}. */
    private void permit(HaspPermitExpirableSemaphore permits, String owner) {
        PendingOperation acquire = recorder.begin(owner, name, OperationType.ACQUIRE, LockMode.SHARED, 1);
        String id;
        try {
            id = permits.tryAcquireAsync(WAIT, lease).get(ANSWER_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            acquire.unknown();
            return;
        }
        if (id == null) {
            acquire.fail();
            return;
        }
        acquire.ok(0, acquire.invokedNanos() + lease.toNanos());
        grants.incrementAndGet();
        holdFor();
        PendingOperation release = recorder.begin(owner, name, OperationType.RELEASE, LockMode.SHARED, 1);
        end(release, permits.tryReleaseAsync(id).thenApply(released -> {
            if (!released) {
                throw new NotLeasedException();
            }
            return null;
        }));
    }

    /** How many acquires of these rounds were granted so far. */
    long grants() {
        return grants.get();
    }

    /** One permit, without a lease, kept for the hold time and given back; recorded under {@code owner}. */
    private void permit(HaspSemaphore permits, String owner) {
        PendingOperation acquire = recorder.begin(owner, name, OperationType.ACQUIRE, LockMode.SHARED, 1);
        try {
            if (!permits.tryAcquireAsync(1, WAIT).get(ANSWER_SECONDS, TimeUnit.SECONDS)) {
                acquire.fail();
                return;
            }
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            acquire.unknown();
            return;
        }
        acquire.ok(0, Operation.UNBOUNDED);
        grants.incrementAndGet();
        holdFor();
        PendingOperation release = recorder.begin(owner, name, OperationType.RELEASE, LockMode.SHARED, 1);
        end(release, permits.releaseAsync(1));
    }

    /** Records an acquire by {@code owner} in {@code mode}; true when it was granted. */
    boolean acquire(HaspLock lock, LockOwner owner, LockMode mode, Duration wait) {
        PendingOperation acquire = recorder.begin(owner.field(), name, OperationType.ACQUIRE, mode, 1);
        try {
            if (lock.tryLockAsync(wait, lease, owner).get(ANSWER_SECONDS, TimeUnit.SECONDS)) {
                acquire.ok(0, acquire.invokedNanos() + lease.toNanos());
                grants.incrementAndGet();
                return true;
            }
            acquire.fail();
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            acquire.unknown();
        }
        return false;
    }

    /** Records a release of one hold count by {@code owner} in {@code mode}. */
    void release(HaspLock lock, LockOwner owner, LockMode mode) {
        PendingOperation release = recorder.begin(owner.field(), name, OperationType.RELEASE, mode, 1);
        end(release, lock.unlockAsync(owner));
    }

    private static void end(PendingOperation release, CompletableFuture<Void> call) {
        try {
            call.get(ANSWER_SECONDS, TimeUnit.SECONDS);
            release.ok();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalMonitorStateException || e.getCause() instanceof NotLeasedException) {
                release.fail();   // the lock found no hold of the owner: nothing was released
            } else {
                release.unknown();   // lost with the link, or anything else: it may have taken effect
            }
        } catch (TimeoutException | InterruptedException e) {
            release.unknown();
        }
    }

    /** A permit-expirable semaphore's answer that the permit is not leased (any more): nothing was given back. */
    private static final class NotLeasedException extends RuntimeException {
        NotLeasedException() {
            super("not leased", null, false, false);
        }
    }

    /** Keeps a hold for the hold time: the critical section of the workloads that have one. */
    private void holdFor() {
        if (!hold.isZero()) {
            LockSupport.parkNanos(hold.toNanos());
        }
    }
}
