package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.internal.lock.AcquireOutcome;
import io.hasp.internal.lock.LockKind;
import io.hasp.internal.lock.ReleaseOutcome;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The two modes of a read/write lock as kinds of lock-core's {@link LockKind}: the read/write
 * scripts and the channel {@code redisson_rwlock:{<name>}}. Everything else (acquisition, waiting,
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

    /** Runs the mode's acquire script; an upgrade fails the future with {@link LockUpgradeException}. */
    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount) {
        if (mode == LockMode.READ) {
            return ReadAcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount);
        }
        return WriteAcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount).thenCompose(outcome ->
                !outcome.acquired() && outcome.remainingMillis() == WriteAcquireScript.UPGRADE
                        ? CompletableFuture.failedFuture(new LockUpgradeException("write lock of " + name
                                + " asked for by " + owner + ", which holds its read lock: an upgrade would wait"
                                + " for itself forever (release the read lock first)"))
                        : CompletableFuture.completedFuture(outcome));
    }

    /** Runs the mode's unlock script: not held, still held, ended (others hold the lock) or freed. */
    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return unlock(topology, name, owner, latch, latchMillis, 0);
    }

    /** Gives back the hold that made {@code targetCount}, if the owner has exactly that many. */
    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        String latch = RwKeys.unlockLatch(name, "rollback:" + UUID.randomUUID());
        return unlock(topology, name, owner, latch, ROLLBACK_LATCH_MILLIS, targetCount)
                .thenApply(outcome -> outcome != ReleaseOutcome.NOT_HELD);
    }

    private CompletableFuture<ReleaseOutcome> unlock(Topology topology, String name, LockOwner owner, String latch,
            long latchMillis, int expectedCount) {
        return mode == LockMode.READ
                ? ReadUnlockScript.run(topology, name, owner.field(), latch, latchMillis, expectedCount)
                : WriteUnlockScript.run(topology, name, owner.field(), latch, latchMillis, expectedCount);
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
