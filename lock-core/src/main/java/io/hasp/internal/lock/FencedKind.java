package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The fenced lock as a {@link LockKind}: the reentrant lock's layout and scripts, except that every
 * acquisition also takes the next fencing token from the counter {@code redisson_lock_token:{<name>}}
 * (Redisson's {@code RFencedLock} layout). It never hands over: a same-client hand-over would skip
 * the acquire script that issues the token. Stateless; one instance.
 */
final class FencedKind implements LockKind {

    static final FencedKind INSTANCE = new FencedKind();

    private static final ReentrantKind LOCK = ReentrantKind.INSTANCE;

    private FencedKind() {
    }

    @Override
    public String channel(String name) {
        return LOCK.channel(name);
    }

    /** A single try on behalf of no process: it takes no place in line, and a turn kept for a process stops it. */
    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return acquireInLine(topology, name, owner, leaseMillis, targetCount, "", false);
    }

    /** Its waiting processes take turns in the reentrant lock's line, which both kinds of lock share. */
    @Override
    public String turnChannel(String name, String process) {
        return LOCK.turnChannel(name, process);
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits) {
        return FencedAcquireScript.run(topology.commands(), name, owner.field(), leaseMillis, targetCount, process,
                waits && !process.isEmpty());
    }

    @Override
    public CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared, LockOwner successor,
            long successorLeaseMillis) {
        return LOCK.releaseInLine(topology, name, owner, latch, leaseMillis, latchMillis, process, staysInLine, listensShared, null, 0);
    }

    @Override
    public CompletableFuture<Boolean> passTurn(Topology topology, String name, String process) {
        return LOCK.passTurn(topology, name, process);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return LOCK.release(topology, name, owner, latch, leaseMillis, latchMillis);
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        // The token an undone acquisition took stays spent: tokens only have to grow.
        return LOCK.rollback(topology, name, owner, targetCount, leaseMillis);
    }

    /** Declined as the line's lock declines it: this kind's waiters share the reentrant lock's line. */
    @Override
    public CompletableFuture<Long> declineGrant(Topology topology, String name, String process, Grant grant,
            LockOwner successor, long successorLeaseMillis) {
        return LOCK.declineGrant(topology, name, process, grant, successor, successorLeaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> leaveLine(Topology topology, String name, String process, List<String> held) {
        return LOCK.leaveLine(topology, name, process, held);
    }

    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        return LOCK.renew(redis, names, owners, leaseMillis, keysDeclared);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        return LOCK.forceRelease(topology, name);
    }

    @Override
    public String toString() {
        return "fenced";
    }
}
