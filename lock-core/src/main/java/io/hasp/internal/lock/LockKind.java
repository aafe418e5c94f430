package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.LockOwner;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One kind of lock (the reentrant lock, a read/write lock's read or write mode, ...): its Redis
 * scripts and its unlock channel. {@link LockService} runs the rest for every kind alike: the
 * acquisition with its deadline and waiting, the unlock retried with one request id, the hold
 * registry, the batched watchdog and the shared wait subscriptions.
 *
 * <p>A kind runs its scripts on the client's {@link Topology}: its commands, and the kind of channel
 * its releases publish on.
 *
 * <p>The service identifies a kind by {@code equals}: use one instance per kind (a singleton).
 * Implementations must be thread-safe and must not block: every method only sends a script (or
 * a few commands) and returns its future. A method that throws is treated like a failed future.
 *
 * <p>Outcomes that a kind reports drive the service: an acquire's {@link AcquireOutcome#ACQUIRED}
 * records a hold, a release's {@link ReleaseOutcome#STILL_HELD} keeps it, an outcome whose
 * {@link ReleaseOutcome#holdEnded()} ends it, a renewal's {@code '0'} marks it lost.
 * Each script must be safe to send twice (the service re-sends after a lost reply): an acquire
 * brings the owner to {@code targetCount}, never past it; a release answers the first outcome
 * recorded in its {@code latch} again.
 */
public interface LockKind {

    /**
     * The pub/sub channel on which releases of lock {@code name} are announced; waiters of every
     * kind that shares a channel share one subscription. Message {@code "0"} wakes one waiter,
     * {@code "1"} wakes them all.
     */
    String channel(String name);

    /**
     * The channel on which {@code owner} waits for lock {@code name}. Default: {@link #channel}, shared by every
     * waiter of the lock; a kind that wakes waiters one by one in its own order gives each its own.
     */
    default String waitChannel(String name, LockOwner owner) {
        return channel(name);
    }

    /**
     * The channel on which process {@code process} (a client's id) hears that its turn to take lock {@code name}
     * came, when the processes waiting for this kind's locks take turns ({@code turns.lua}): the service then calls
     * {@link #acquireInLine} and {@link #releaseInLine}, each waiting process listens on its own turn channel, and
     * a waiter listens on {@link #waitChannel} too only when an acquire answers busy without
     * {@link AcquireOutcome#inLine()}. Null (default): they do not take turns, and every waiter listens on
     * {@link #waitChannel}.
     */
    default String turnChannel(String name, String process) {
        return null;
    }

    /**
     * Whether this kind's waiters stand in the line of turns when {@link #turnChannel} is not null (default: yes).
     * A read/write lock's readers share its turn channel with its writers but take no place in line: a new reader
     * then tries at once instead of waiting for its process's turn.
     */
    default boolean standsInLine() {
        return true;
    }

    /**
     * {@link #acquire} (or, when not {@code waits}, {@link #acquireWithoutWaiting}) on behalf of process
     * {@code process}, which takes a place in the lock's line when it waits and the lock is taken. Default: the
     * kind's waiters do not take turns, and the process is ignored.
     */
    default CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits) {
        return waits ? acquire(topology, name, owner, leaseMillis, targetCount)
                : acquireWithoutWaiting(topology, name, owner, leaseMillis, targetCount);
    }

    /**
     * {@link #acquireInLine}, naming the owner its process's heir, stamped {@code stamp} (unique in this client; 0:
     * name none), where the kind grants the lock in a release to a waiting process's heir: the process then hears a
     * {@link Grant} on its turn channel. Default: the kind grants nothing, and the stamp is ignored.
     */
    default CompletableFuture<AcquireOutcome> acquireInLine(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount, String process, boolean waits, long stamp) {
        return acquireInLine(topology, name, owner, leaseMillis, targetCount, process, waits);
    }

    /**
     * Process {@code process} heard that lock {@code name} was granted to {@code grant}, an owner with no acquisition
     * parked there: unless the owner's acquire took the grant as its own, hands the lock to {@code successor}, a
     * waiter of that process (one hold, lease {@code successorLeaseMillis}), or, when null, frees it and gives it on.
     * Only called for a kind whose {@link #acquireInLine} names heirs.
     *
     * @return a future of 2 when the lock went to the successor, 1 when it was freed, 0 when nothing was declined
     */
    default CompletableFuture<Long> declineGrant(Topology topology, String name, String process, Grant grant,
            LockOwner successor, long successorLeaseMillis) {
        throw new UnsupportedOperationException(this + " locks grant nothing");
    }

    /**
     * Process {@code process}, whose client closes, leaves the line of lock {@code name}: it names no heir any more,
     * and a grant to one of its owners not in {@code held} (the owner fields that hold the lock by their own count) is
     * declined. Default: the kind grants nothing, and there is nothing to leave.
     *
     * @return a future of {@code true} when a grant was declined
     */
    default CompletableFuture<Boolean> leaveLine(Topology topology, String name, String process, List<String> held) {
        return CompletableFuture.completedFuture(false);
    }

    /**
     * {@link #release} (or, with a {@code successor}, {@link #releaseTo}) on behalf of process {@code process};
     * when it frees the lock, the turn goes to the first process in line. Besides {@link #release}'s answers it
     * may answer {@link ReleaseOutcome#FREED_OWN_TURN}, {@link ReleaseOutcome#FREED_TURN_ELSEWHERE} and
     * {@link ReleaseOutcome#FREED_FOR_ALL}. Default: the kind's waiters do not take turns, and the process is
     * ignored.
     *
     * @param staysInLine 2 when other waiters of {@code process} go on waiting (it takes a place at the end of the
     *     line before the turn is given), 1 when its acquisitions are expected back (it takes a place when the turn
     *     went to another process), 0 when it keeps no place
     * @param listensShared whether {@code process} itself listens on the lock's shared channel (it is then not counted
     *     among the clients that take no turns and may wait there)
     * @param successor a waiting owner of this process to hand the lock to, or null
     */
    default CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared, LockOwner successor,
            long successorLeaseMillis) {
        return successor == null ? release(topology, name, owner, latch, leaseMillis, latchMillis)
                : releaseTo(topology, name, owner, latch, leaseMillis, latchMillis, successor, successorLeaseMillis);
    }

    /**
     * {@link #releaseInLine}, naming the releasing owner, stamped {@code stamp} (0: none), its process's heir when the
     * process keeps a place because its acquisitions come back ({@code staysInLine} 1), where the kind grants (see
     * {@link #acquireInLine(Topology, String, LockOwner, long, int, String, boolean, long)}). Default: the stamp is
     * ignored.
     */
    default CompletableFuture<ReleaseOutcome> releaseInLine(Topology topology, String name, LockOwner owner,
            String latch, long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared,
            LockOwner successor, long successorLeaseMillis, long stamp) {
        return releaseInLine(topology, name, owner, latch, leaseMillis, latchMillis, process, staysInLine,
                listensShared, successor, successorLeaseMillis);
    }

    /**
     * Process {@code process} was given the turn of lock {@code name} and has nobody left to take it: passes the
     * turn on to the next process in line. Only called when {@link #turnChannel} is not null.
     *
     * @return a future of {@code true} when the turn went on
     */
    default CompletableFuture<Boolean> passTurn(Topology topology, String name, String process) {
        throw new UnsupportedOperationException(this + " locks take no turns");
    }

    /**
     * Whether an acquire answered "busy" gives the owner a place in a line that it must give back when it stops
     * waiting: the service then sends {@link #rollback} with target 0 (a place to give back, no grant to undo)
     * when the acquisition ends without the lock, as it sends one for an acquire with an unknown outcome.
     * Default: no.
     */
    default boolean queuesWaiters() {
        return false;
    }

    /**
     * The kind under which an owner's acquisitions of this kind wait for its unlocks in flight: this kind (default),
     * or, where several kinds are modes of one lock in one hash (a read/write lock's), the same kind for all of them,
     * so that taking one mode waits for the owner's unlock of another still on its way.
     */
    default LockKind orderedWith() {
        return this;
    }

    /**
     * The identity of {@code owner}'s hold in this kind, unique among the kinds of one lock name
     * (the reentrant lock: {@link LockOwner#field()}); used in diagnostics and logs.
     */
    default String holdField(LockOwner owner) {
        return owner.field();
    }

    /**
     * Tries to bring {@code owner}'s hold count on lock {@code name} to {@code targetCount} with a
     * lease of {@code leaseMillis}.
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the lock afterwards,
     *     else of {@link AcquireOutcome#busy} with the holder's remaining time to live, which bounds
     *     the next wait. A future failed with an exception that is not a {@link io.hasp.RedisException}
     *     is a final answer: the acquisition fails with it at once and nothing is rolled back.
     */
    CompletableFuture<AcquireOutcome> acquire(Topology topology, String name, LockOwner owner, long leaseMillis,
            int targetCount);

    /**
     * {@link #acquire}, for a single try with no wait time: a kind that {@linkplain #queuesWaiters queues its
     * waiters} answers "busy" without giving the owner a place in line. Default: {@link #acquire}.
     */
    default CompletableFuture<AcquireOutcome> acquireWithoutWaiting(Topology topology, String name, LockOwner owner,
            long leaseMillis, int targetCount) {
        return acquire(topology, name, owner, leaseMillis, targetCount);
    }

    /**
     * Gives back one hold of {@code owner} on lock {@code name}, recording the outcome in the key
     * {@code latch} ({@link #unlockLatchPrefix unlockLatchPrefix(name)} and a request id, the same
     * for every send of one request) for {@code latchMillis} so that the same request sent again
     * answers the same; when the owner keeps holds, their lease becomes {@code leaseMillis}.
     *
     * @return a future of {@link ReleaseOutcome#NOT_HELD} when the owner did not hold it (the service
     *     then fails the unlock with {@link IllegalMonitorStateException}), {@link ReleaseOutcome#STILL_HELD}
     *     when the owner still holds it with one hold fewer, {@link ReleaseOutcome#ENDED} or
     *     {@link ReleaseOutcome#FREED} when the owner's hold ended (others still holding the lock, or not)
     */
    CompletableFuture<ReleaseOutcome> release(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis);

    /**
     * Whether this kind can hand a lock straight from one owner to a waiting owner of the same
     * client in the release script ({@link #releaseTo}). Default: no.
     */
    default boolean handsOver() {
        return false;
    }

    /**
     * Like {@link #release}, but when that ends {@code owner}'s last hold the lock is not freed: it
     * goes in the same script to {@code successor} (one hold, lease {@code successorLeaseMillis}),
     * and nothing is announced on the channel, since the lock was never free. Only called when
     * {@link #handsOver()} is true.
     *
     * @return a future of what {@link #release} answers, except that {@link ReleaseOutcome#HANDED_OVER}
     *     replaces {@link ReleaseOutcome#FREED} when the lock went to {@code successor}
     */
    default CompletableFuture<ReleaseOutcome> releaseTo(Topology topology, String name, LockOwner owner, String latch,
            long leaseMillis, long latchMillis, LockOwner successor, long successorLeaseMillis) {
        throw new UnsupportedOperationException(this + " locks are not handed over");
    }

    /**
     * Undoes the acquisition that would have brought {@code owner} to {@code targetCount} holds, if
     * it took effect (its reply was lost and its caller gave up); harmless when it never ran. A kind that
     * queues its waiters also takes the owner out of its line; {@code targetCount} 0 does only that.
     *
     * @return a future of {@code true} when something was undone
     */
    CompletableFuture<Boolean> rollback(Topology topology, String name, LockOwner owner, int targetCount,
            long leaseMillis);

    /**
     * Resets to {@code leaseMillis} the lease of each hold of {@code owners.get(i)} on lock
     * {@code names.get(i)} (the lists have one entry per hold, pairwise), in one call on {@code redis}.
     * The topology chooses where the call goes and how its keys travel ({@link io.hasp.internal.topology.KeyBatch}):
     * declared, or, when one cluster node serves locks of several slots, {@link UndeclaredKeys undeclared}
     * (a node answers {@code '0'} or fails for a key it does not serve; the topology then asks again by slot).
     *
     * @param keysDeclared whether the call declares its keys (they then share one slot)
     * @return a future of a string with one character per hold, in order: {@code '1'} renewed,
     *     {@code '0'} no longer held (the hold is then reported {@link io.hasp.lock.HoldEnd#LOST})
     */
    CompletableFuture<String> renew(RedisCommands redis, List<String> names, List<LockOwner> owners,
            long leaseMillis, boolean keysDeclared);

    /**
     * Resets to {@code leaseMillis} the lease of {@code owner}'s hold on lock {@code name}: an explicit
     * extension ({@code extend}), sent through {@code topology}'s commands. Default: {@link #renew} of that
     * one hold.
     *
     * @return a future of {@code "1"} renewed, {@code "0"} no longer held
     */
    default CompletableFuture<String> extend(Topology topology, String name, LockOwner owner, long leaseMillis) {
        return renew(topology.commands(), List.of(name), List.of(owner), leaseMillis, true);
    }

    /**
     * Frees lock {@code name} in this kind whoever holds it, announcing it on its channel.
     *
     * @return a future of {@code true} when there was a hold to free
     */
    CompletableFuture<Boolean> forceRelease(Topology topology, String name);

    /**
     * Whether a release that ends a hold announces it with {@code "1"} (wake all waiters) rather
     * than {@code "0"}: then the service does not also hand the lock to one local waiter.
     */
    default boolean releaseWakesAll() {
        return false;
    }

    /**
     * What the latch keys of lock {@code name} start with: the service appends a request id, and
     * {@link #release} records that request's outcome in the key. The service deletes it once the
     * outcome is confirmed. Default: Redisson's {@code redisson_unlock_latch:{<name>}:}.
     */
    default String unlockLatchPrefix(String name) {
        return LockKeys.unlockLatchPrefix(name);
    }
}
