package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The fair lock as a {@link LockKind}: the reentrant lock's hash, granted first come first served through
 * Redisson's {@code RFairLock} queue (see {@code fair_queue.lua}), so hasp and Redisson waiters on one name
 * stand in one line. A waiter listens on a channel of its own and only the head of the line is woken; a waiter
 * that stops waiting gives its place back ({@link #rollback}), and one that stopped without a word (a crash)
 * loses it when its place lease ends: hasp waiters renew theirs each time they look at the lock, at least every
 * third of it. The lock is never handed over inside this client: a hand-over would pass the line.
 *
 * <p>Immutable; equal kinds have equal leases (one per client).
 */
final class FairKind implements LockKind {

    /**
     * The step Redisson's fair lock adds to each waiter's deadline and takes off at each grant: its default
     * {@code fairLockWaitTimeout}, 5 minutes. hasp writes deadlines with it so that Redisson clients in a mixed
     * fleet never drop a hasp waiter that is still renewing its place.
     */
    static final long REDISSON_DEADLINE_STEP_MILLIS = 300_000;

    private final long placeLeaseMillis;

    /** @param placeLeaseMillis how long a waiter keeps its place in line without looking at the lock */
    FairKind(long placeLeaseMillis) {
        if (placeLeaseMillis < 3) {
            throw new IllegalArgumentException("placeLeaseMillis: " + placeLeaseMillis + " (expected: >= 3)");
        }
        this.placeLeaseMillis = placeLeaseMillis;
    }

    /** How long a waiter keeps its place in line without looking at the lock. */
    long placeLeaseMillis() {
        return placeLeaseMillis;
    }

    /** Redisson's deadline step, {@link #REDISSON_DEADLINE_STEP_MILLIS}. */
    long deadlineStepMillis() {
        return REDISSON_DEADLINE_STEP_MILLIS;
    }

    @Override
    public String channel(String name) {
        return LockKeys.channel(name);
    }

    /** Each waiter's own channel, {@code redisson_lock__channel:{<name>}:<owner field>}: only the head is woken. */
    @Override
    public String waitChannel(String name, LockOwner owner) {
        return LockKeys.channel(name) + ':' + owner.field();
    }

    @Override
    public boolean queuesWaiters() {
        return true;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return FairScripts.acquire(topology, this, name, owner.field(), leaseMillis, targetCount, true);
    }

    /** A single try: the lock if it is free and nobody is in line, else "busy" without a place in line. */
    @Override
    public CompletableFuture<AcquireOutcome> acquireWithoutWaiting(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return FairScripts.acquire(topology, this, name, owner.field(), leaseMillis, targetCount, false);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return FairScripts.unlock(topology, this, name, owner.field(), latch, leaseMillis, latchMillis);
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        return FairScripts.rollback(topology, this, name, owner.field(), targetCount, leaseMillis);
    }

    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        return RenewScript.run(redis, names, owners, leaseMillis, keysDeclared);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        return FairScripts.forceUnlock(topology, this, name);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FairKind that && placeLeaseMillis == that.placeLeaseMillis;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(placeLeaseMillis);
    }

    @Override
    public String toString() {
        return "fair";
    }
}
