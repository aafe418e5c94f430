package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.internal.lock.AcquireOutcome;
import io.hasp.internal.lock.LockKind;
import io.hasp.internal.lock.PassTurnScript;
import io.hasp.internal.lock.ReleaseOutcome;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The two modes of a read/write lock as kinds of lock-core's {@link LockKind}: the read/write
 * scripts and the channel {@code redisson_rwlock:{<name>}}, plus hasp's line in which the processes waiting for the
 * write lock take turns (lock-core's {@code turns.lua}, with keys of its own, {@link RwKeys#inLine}). Everything else (acquisition, waiting,
 * unlock retries, hold registry, the batched watchdog, wait subscriptions) is the client's
 * {@link io.hasp.internal.lock.LockService}, shared with the reentrant lock. One instance per mode;
 * stateless and thread-safe.
 *
 * <p>Leases: a release never shortens the lock (the hash lives as long as its longest hold), so the
 * service's {@code leaseMillis} for remaining holds is not needed here.
 */
final class RwLockKind implements LockKind {

    static final RwLockKind READ = new RwLockKind(LockMode.READ);
    static final RwLockKind WRITE = new RwLockKind(LockMode.WRITE);

    /** How long the latch of a rollback (an undo sent once, best effort) is kept. */
    private static final long ROLLBACK_LATCH_MILLIS = 10_000;

    private final LockMode mode;

    private RwLockKind(LockMode mode) {
        this.mode = mode;
    }

    LockMode mode() {
        return mode;
    }

    /** Both modes: taking one waits for the same owner's unlock of the other still on its way. */
    @Override
    public LockKind orderedWith() {
        return READ;
    }

    /** {@code redisson_rwlock:{<name>}}, shared by both modes: waiters of both share one subscription. */
    @Override
    public String channel(String name) {
        return RwKeys.channel(name);
    }

    /** The owner's field in the lock's hash: {@code <owner>} for reading, {@code <owner>:write} for writing. */
    @Override
    public String holdField(LockOwner owner) {
        return mode == LockMode.WRITE ? RwKeys.writeField(owner.field()) : owner.field();
    }

    /**
     * The channel on which process {@code process} hears that its turn came,
     * {@code hasp_rwlock_turn__channel:{<name>}:<process>}, the same for both modes: the processes waiting for the
     * write lock take turns, and the waiters of both modes share one wait channel per process (a reader waits on the
     * lock's shared channel too, since readers take no place in line).
     */
    @Override
    public String turnChannel(String name, String process) {
        return RwKeys.turnChannelPrefix(name) + process;
    }

    /** Only writers stand in the line of turns: a reader tries at once (readers enter together). */
    @Override
    public boolean standsInLine() {
        return mode == LockMode.WRITE;
    }

    /** A single try on behalf of no process: it takes no place in line, and a turn kept for a process stops it. */
    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount) {
        return acquireInLine(topology, name, owner, leaseMillis, targetCount, "", false);
    }

    /**
     * Runs the mode's acquire script for process {@code process}: a writer that waits takes a place in the
     * writers' line, and leaves a free lock kept for another process's turn to it; a reader takes no place and is
     * not held back by a turn (a process whose waiters only read never gets one). An upgrade fails the future with
     * {@link LockUpgradeException}.
     */
    @Override
    public CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits) {
        if (mode == LockMode.READ) {
            return ReadAcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount);
        }
        return WriteAcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount, process,
                waits).thenCompose(outcome -> outcome == WriteAcquireScript.UPGRADE
                        ? CompletableFuture.failedFuture(new LockUpgradeException("write lock of " + name
                                + " asked for by " + owner + ", which holds its read lock: an upgrade would wait"
                                + " for itself forever (release the read lock first)"))
                        : CompletableFuture.completedFuture(outcome));
    }

    /** Runs the mode's unlock script on behalf of no process: not held, still held, ended, or freed. */
    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return unlock(topology, name, owner, latch, latchMillis, 0, ReleasingProcess.NONE);
    }

    /** Runs the mode's unlock script for {@code process}; when it frees the lock, the turn goes to the next writer. */
    @Override
    public CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared,
            LockOwner successor, long successorLeaseMillis) {
        return unlock(topology, name, owner, latch, latchMillis, 0,
                new ReleasingProcess(process, staysInLine, listensShared));
    }

    /** Passes {@code process}'s turn on to the next process in the writers' line. */
    @Override
    public CompletableFuture<Boolean> passTurn(Topology topology, String name, String process) {
        return PassTurnScript.run(topology, RwKeys.inLine(name), RwKeys.turnChannelPrefix(name), process);
    }

    /** Gives back the hold that made {@code targetCount}, if the owner has exactly that many. */
    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        String latch = RwKeys.unlockLatch(name, "rollback:" + UUID.randomUUID());
        return unlock(topology, name, owner, latch, ROLLBACK_LATCH_MILLIS, targetCount, ReleasingProcess.NONE)
                .thenApply(outcome -> outcome != ReleaseOutcome.NOT_HELD);
    }

    private CompletableFuture<ReleaseOutcome> unlock(Topology topology, String name, LockOwner owner, String latch,
            long latchMillis, int expectedCount, ReleasingProcess releasing) {
        return mode == LockMode.READ
                ? ReadUnlockScript.run(topology, name, owner.field(), latch, latchMillis, expectedCount, releasing)
                : WriteUnlockScript.run(topology, name, owner.field(), latch, latchMillis, expectedCount, releasing);
    }

    /** Renews the batch: read holds renew the hash and only their own owner's timeout keys. */
    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        return RwRenewScript.run(redis, names, owners, mode, leaseMillis, keysDeclared);
    }

    /** Deletes the lock if it is in this mode (with its read timeout keys) and publishes {@code "1"}. */
    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        return RwForceUnlockScript.run(topology, name, mode);
    }

    /** A write release publishes {@code "1"}, waking every waiter (readers enter together). */
    @Override
    public boolean releaseWakesAll() {
        return mode == LockMode.WRITE;
    }

    /** Redisson's latch keys, {@code redisson_unlock_latch:{<name>}:<requestId>}. */
    @Override
    public String unlockLatchPrefix(String name) {
        return RwKeys.unlockLatch(name, "");
    }

    /** The kind's name, for logs. */
    @Override
    public String toString() {
        return "read/write lock, " + mode.name().toLowerCase() + " mode";
    }
}
