package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reentrant lock as a {@link LockKind}: Redisson's {@code RLock} layout (a hash of owner field
 * to hold count, unlock channel {@code redisson_lock__channel:{<name>}}, message {@code "0"}), by
 * way of the scripts in this package, plus hasp's line in which waiting processes take turns ({@link Turns}).
 * Stateless; one instance.
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
    public String turnChannel(String name, String process) {
        return LockKeys.turnChannel(name, process);
    }

    /** A single try on behalf of no process: it takes no place in line, and a turn kept for a process stops it. */
    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return acquireInLine(topology, name, owner, leaseMillis, targetCount, "", false);
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits) {
        return acquireInLine(topology, name, owner, leaseMillis, targetCount, process, waits, 0L);
    }

    /**
     * Names the waiter its process's heir, unless replicas must confirm writes: a lock granted in a release would be
     * held without the heir's own confirmed acquire.
     */
    @Override
    public CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits, long stamp) {
        return AcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount, process,
                waits && !process.isEmpty(), topology.replicaAcks().enabled() ? 0 : stamp);
    }

    /** A release on behalf of no process: when it frees the lock, the turn goes to the first process in line. */
    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return releaseInLine(topology, name, owner, latch, leaseMillis, latchMillis, "", 0, false, null, 0);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared, LockOwner successor,
            long successorLeaseMillis) {
        return releaseInLine(topology, name, owner, latch, leaseMillis, latchMillis, process, staysInLine,
                listensShared, successor, successorLeaseMillis, 0L);
    }

    /** Names the owner its process's heir, unless replicas must confirm writes ({@link #acquireInLine}). */
    @Override
    public CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared,
            LockOwner successor, long successorLeaseMillis, long stamp) {
        String heir = staysInLine == 1 && stamp > 0 && !topology.replicaAcks().enabled()
                ? Grant.heir(stamp, leaseMillis, owner.field()) : "";
        return UnlockScript.run(topology, name, owner.field(), latch, leaseMillis, latchMillis, process, staysInLine,
                listensShared, successor == null ? null : successor.field(), successorLeaseMillis, heir);
    }

    @Override
    public CompletableFuture<Boolean> passTurn(Topology topology, String name, String process) {
        return PassTurnScript.run(topology, name, process);
    }

    @Override
    public boolean handsOver() {
        return true;
    }

    @Override
    public CompletableFuture<ReleaseOutcome> releaseTo(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis, LockOwner successor, long successorLeaseMillis) {
        return releaseInLine(topology, name, owner, latch, leaseMillis, latchMillis, "", 0, false, successor,
                successorLeaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        return RollbackScript.run(topology, name, owner.field(), targetCount, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> leaveLine(Topology topology, String name, String process, List<String> held) {
        return LeaveLineScript.run(topology, name, process, held);
    }

    @Override
    public CompletableFuture<Long> declineGrant(Topology topology, String name, String process, Grant grant,
            LockOwner successor, long successorLeaseMillis) {
        return RollbackScript.decline(topology, name, process, grant, successor == null ? null : successor.field(),
                successorLeaseMillis);
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
