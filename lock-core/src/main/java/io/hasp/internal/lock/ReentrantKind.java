package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reentrant lock as a {@link LockKind}: Redisson's {@code RLock} layout (a hash of owner field
 * to hold count, unlock channel {@code redisson_lock__channel:{<name>}}, message {@code "0"}), by
 * way of the scripts in this package. Stateless; one instance.
 */
final class ReentrantKind implements LockKind {

    static final ReentrantKind INSTANCE = new ReentrantKind();

    private ReentrantKind() {
    }

    @Override
    public String channel(String name) {
        return LockKeys.channel(name);
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return AcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return UnlockScript.run(topology, name, owner.field(), latch, leaseMillis, latchMillis);
    }

    @Override
    public boolean handsOver() {
        return true;
    }

    @Override
    public CompletableFuture<ReleaseOutcome> releaseTo(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis, LockOwner successor, long successorLeaseMillis) {
        return UnlockScript.runHandingOver(topology, name, owner.field(), latch, leaseMillis, latchMillis,
                successor.field(), successorLeaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        return RollbackScript.run(topology, name, owner.field(), targetCount, leaseMillis);
    }

    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        return RenewScript.run(redis, names, owners, leaseMillis, keysDeclared);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        return ForceUnlockScript.run(topology, name);
    }

    @Override
    public String toString() {
        return "reentrant";
    }
}
