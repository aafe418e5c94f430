package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.ReplicaAcks;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.KeyBatch;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A {@link LockKind} whose acquisitions, unlocks, extensions and rollbacks are confirmed by replicas as
 * one lock asks ({@link ReplicaAcks}), whatever its client's setting: the base kind's scripts, extensions included, sent
 * through {@link Topology#commands(ReplicaAcks)}. Its watchdog renewals go as the client's do. It never
 * hands a lock over (the waiter runs its own confirmed acquire). Equal to another for the same base and
 * setting, so that the holds of every view of one lock are one. Thread-safe.
 */
final class ConfirmedKind implements LockKind {

    private final LockKind base;
    private final ReplicaAcks acks;
    /** The base's order, confirmed alike: this kind, or the confirmed kind of the mode it is ordered with. */
    private final LockKind orderedWith;
    /** The last topology seen and its confirming view (a client has one topology). */
    private volatile Confirming view;

    ConfirmedKind(LockKind base, ReplicaAcks acks) {
        this.base = base;
        this.acks = acks;
        LockKind with = base.orderedWith();
        this.orderedWith = with.equals(base) ? this : new ConfirmedKind(with, acks);
    }

    /** {@code topology} with this kind's confirmations. */
    private Topology confirming(Topology topology) {
        Confirming current = view;
        if (current == null || current.base != topology) {
            current = new Confirming(topology, topology.commands(acks), acks);
            view = current;
        }
        return current;
    }

    @Override
    public String channel(String name) {
        return base.channel(name);
    }

    @Override
    public String waitChannel(String name, LockOwner owner) {
        return base.waitChannel(name, owner);
    }

    @Override
    public String turnChannel(String name, String process) {
        return base.turnChannel(name, process);
    }

    @Override
    public boolean standsInLine() {
        return base.standsInLine();
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits) {
        return base.acquireInLine(confirming(topology), name, owner, leaseMillis, targetCount, process, waits);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared, LockOwner successor,
            long successorLeaseMillis) {
        return base.releaseInLine(confirming(topology), name, owner, latch, leaseMillis, latchMillis, process,
                staysInLine, listensShared, successor, successorLeaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> passTurn(Topology topology, String name, String process) {
        return base.passTurn(confirming(topology), name, process);
    }

    @Override
    public boolean queuesWaiters() {
        return base.queuesWaiters();
    }

    /** The base's order, confirmed alike: a read/write lock's two confirmed modes wait for each other's unlocks. */
    @Override
    public LockKind orderedWith() {
        return orderedWith;
    }

    @Override
    public String holdField(LockOwner owner) {
        return base.holdField(owner);
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount) {
        return base.acquire(confirming(topology), name, owner, leaseMillis, targetCount);
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquireWithoutWaiting(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return base.acquireWithoutWaiting(confirming(topology), name, owner, leaseMillis, targetCount);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis) {
        return base.release(confirming(topology), name, owner, latch, leaseMillis, latchMillis);
    }

    @Override
    public CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis) {
        return base.rollback(confirming(topology), name, owner, targetCount, leaseMillis);
    }

    /** Declined as the line's lock declines it: this kind's waiters share the reentrant lock's line. */
    @Override
    public CompletableFuture<Long> declineGrant(Topology topology, String name, String process, Grant grant,
            LockOwner successor, long successorLeaseMillis) {
        return base.declineGrant(topology, name, process, grant, successor, successorLeaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> leaveLine(Topology topology, String name, String process, List<String> held) {
        return base.leaveLine(topology, name, process, held);
    }

    @Override
    public CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared) {
        return base.renew(redis, names, owners, leaseMillis, keysDeclared);
    }

    @Override
    public CompletableFuture<String> extend(Topology topology, String name, LockOwner owner, long leaseMillis) {
        return base.extend(confirming(topology), name, owner, leaseMillis);
    }

    @Override
    public CompletableFuture<Boolean> forceRelease(Topology topology, String name) {
        return base.forceRelease(confirming(topology), name);
    }

    @Override
    public boolean releaseWakesAll() {
        return base.releaseWakesAll();
    }

    @Override
    public String unlockLatchPrefix(String name) {
        return base.unlockLatchPrefix(name);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConfirmedKind that && base.equals(that.base) && acks.equals(that.acks);
    }

    @Override
    public int hashCode() {
        return 31 * base.hashCode() + acks.hashCode();
    }

    /** The kind whose writes this one confirms. */
    LockKind base() {
        return base;
    }

    @Override
    public String toString() {
        return base + " confirmed by " + acks;
    }

    /** A topology whose commands confirm scripts with other {@link ReplicaAcks}; the rest is the base's. */
    private static final class Confirming implements Topology {
        final Topology base;
        private final RedisCommands commands;
        private final ReplicaAcks acks;

        Confirming(Topology base, RedisCommands commands, ReplicaAcks acks) {
            this.base = base;
            this.commands = commands;
            this.acks = acks;
        }

        @Override public RedisCommands commands() { return commands; }
        @Override public ReplicaAcks replicaAcks() { return acks; }
        @Override public RedisCommands commands(ReplicaAcks other) { return base.commands(other); }
        @Override public PubSub pubSub() { return base.pubSub(); }
        @Override public ChannelKind channelKind() { return base.channelKind(); }
        @Override public Object batchGroup(String key) { return base.batchGroup(key); }
        @Override public CompletableFuture<String> send(KeyBatch batch) { return base.send(batch); }
        @Override public void onMastersMoved(Consumer<String> listener) { base.onMastersMoved(listener); }
        @Override public boolean knownDown(String key) { return base.knownDown(key); }
        @Override public int commandsInFlight() { return base.commandsInFlight(); }
        @Override public DirectConnections direct() { return null; }
        @Override public CompletableFuture<Void> start() { return base.start(); }
        @Override public CompletableFuture<Void> close() { return base.close(); }
    }
}
