package io.hasp.internal.lock;

import io.hasp.HaspListener;
import io.hasp.RedisClosedException;
import io.hasp.RedisCommands;
import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the lock operations of one client share (state, not operations: it starts none): its topology (commands, subscriptions, channel kind), timer and clock, its holds and their
 * watchdog, its waiters, the unlock latches to sweep, and the timing settings. {@link LockService}
 * builds one and hands it to each {@link Acquisition}, {@link Unlock} and {@link LeaseExtension}, so none of
 * them calls back into the service. Every part is complete when the constructor returns. Thread-safe.
 */
final class LockContext {

    /** Most locks renewed by one script call. */
    static final int RENEWAL_BATCH = 100;
    /** How long an idle wait channel keeps its subscription. */
    static final long LINGER_MILLIS = 1_000;

    /** This client's id: the process that stands in a lock's line when its waiters take turns. */
    final String process;
    final Topology topology;
    /** The topology's commands. */
    final RedisCommands redis;
    final Timer timer;
    final HoldRegistry holds;
    final LeaseRenewer renewer;
    final LockWaiters waiters;
    final LatchSweeper latches;
    /** Writes the master applied but too few replicas confirmed, whose answer stands (renewals counted). */
    final Unconfirmed unconfirmed = new Unconfirmed();
    /** Holds whose last acquire has an unknown outcome: a new acquisition of one waits until it is settled. */
    final UnsettledAcquires unsettled = new UnsettledAcquires();
    /** Unlocks without their answer yet: a new acquisition of one's hold waits for it. */
    final UnlocksInFlight unlocksInFlight = new UnlocksInFlight();
    /** The lease the watchdog keeps renewing. */
    final long watchdogLeaseMillis;
    /** Holds that ended LOST or EXPIRED (before their unlock), counted for monitoring. */
    final LongAdder lostHolds = new LongAdder();
    /** Tells the application's listener of lock events; null when none is set. */
    final LockEvents events;
    /** How long an unlock or an extension is re-sent after failures: about twice the command timeout. */
    final long retryNanos;
    /** How long an unlock's latch answers a re-sent unlock. */
    final long latchMillis;
    private final LongSupplier clock;
    /** Starts every unlock request id of this client: short, random, so ids of all clients differ. */
    private final String requestPrefix =
            Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36) + ':';
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong stamps = new AtomicLong();
    /** Just before this client's first stamp: a stamp is the {@link #nanoTime} it was made at, less this. */
    private final long stampEpoch;
    /** Operations waiting for the timer or a message: ended by {@link #endStranded} once the timer stopped. */
    private final Set<Stranded> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean timerStopped;
    /** The last change of masters this client learnt of, and when; null before the first. */
    private volatile MasterChange lastChange;

    /** A change of masters, in words, and when this client learnt of it. */
    private record MasterChange(String change, long nanos) {
    }

    LockContext(String process, Topology topology, Timer timer, LongSupplier clock, long watchdogLeaseMillis,
            long commandTimeoutMillis, HaspListener listener) {
        this.process = process;
        this.events = listener == null ? null : new LockEvents(listener, this);
        this.topology = topology;
        this.redis = topology.commands();
        this.timer = timer;
        this.clock = clock;
        this.stampEpoch = clock.getAsLong() - 1;
        this.watchdogLeaseMillis = watchdogLeaseMillis;
        this.retryNanos = TimeUnit.MILLISECONDS.toNanos(2 * commandTimeoutMillis);
        this.latchMillis = 4 * commandTimeoutMillis + 1_000;
        LockWaiters lockWaiters = new LockWaiters(topology.pubSub(), timer, LINGER_MILLIS);
        this.waiters = lockWaiters;
        this.holds = new HoldRegistry(hold -> {
            lostHolds.increment();
            holdLost(lockWaiters, hold);
        }, events);
        // One renewal call per server and kind (on a cluster: per master, whatever the slots of its locks).
        this.renewer = new LeaseRenewer(holds, timer, clock, watchdogLeaseMillis, RENEWAL_BATCH,
                (kind, names, owners, lease) -> topology.send(new RenewBatch(kind, names, owners, lease,
                        topology.replicaAcks().enabled() ? unconfirmed : null)),
                topology::batchGroup, events);
        this.latches = new LatchSweeper(redis, timer);
    }

    /** Records that the masters changed ({@code change}, in words), now. */
    void mastersMoved(String change) {
        lastChange = new MasterChange(change, clock.getAsLong());
    }

    /** The last change of masters this client learnt of after {@code sinceNanos}, in words; null when none. */
    String mastersMovedSince(long sinceNanos) {
        MasterChange last = lastChange;
        return last != null && last.nanos() - sinceNanos > 0 ? last.change() : null;
    }

    /** A hold ended without an unlock: waiters here that parked behind it look again. */
    private static void holdLost(LockWaiters waiters, Hold hold) {
        if (!hold.kind.handsOver()) {
            return;
        }
        WaitChannel channel = waiters.channel(hold.kind.channel(hold.name));
        if (channel != null) {
            channel.holdLost(hold.owner);
        }
    }

    /**
     * The process a lock call of this client stands in line for ({@link #process}), or "" where publishes do not
     * count a channel's listeners ({@link Topology#publishCountsListeners}: a cluster's classic channels), and the
     * processes waiting for a lock take no turns.
     */
    String inLine() {
        return topology.publishCountsListeners() ? process : "";
    }

    /** The channel on which this client hears its turns of lock {@code name} of {@code kind}; null: no turns. */
    String turnChannel(LockKind kind, String name) {
        return topology.publishCountsListeners() ? kind.turnChannel(name, process) : null;
    }

    long nanoTime() {
        return clock.getAsLong();
    }

    Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        return timer.newTimeout(t -> task.run(), Math.max(0, delay), unit);
    }

    /**
     * A number unique in this client, above 0, that tells one naming of a process's heir from another ({@link Grant}):
     * the time it is made at, so that a grant to the heir tells when, at the latest, the heir was named (the lock was
     * granted after that; see {@link #stampNanos}). Made just before the script that names the heir is sent.
     */
    long nextStamp() {
        long now = nanoTime() - stampEpoch;
        return stamps.accumulateAndGet(now, (last, time) -> Math.max(last + 1, time));
    }

    /**
     * The stamp with which an acquire names its caller its process's heir ({@link #nextStamp}), or 0 to name none: an
     * acquisition that {@code waits} names itself where this process waits for the lock already (its waiters'
     * channel {@code channelName} is open). A first acquisition in a while names none, and costs nothing for it.
     */
    long heirStamp(boolean waits, String channelName) {
        return waits && waiters.channel(channelName) != null ? nextStamp() : 0;
    }

    /** The {@link #nanoTime} at which {@code stamp}, of {@link #nextStamp}, was made (a few nanoseconds late at most). */
    long stampNanos(long stamp) {
        return stampEpoch + stamp;
    }

    /** A new unlock request id of lock {@code name} of {@code kind}: the key its latch is stored under. */
    String unlockLatch(LockKind kind, String name) {
        return kind.unlockLatchPrefix(name) + requestPrefix + requests.incrementAndGet();
    }

    /**
     * Schedules {@code send} of {@code operation} again after a failure, with
     * {@link Backoff#COMMAND_RETRY}'s pause for its {@code failedSends}-th retry, when the failure is
     * retryable and the budget ending at {@code retryUntilNanos} is not spent. Until the send runs,
     * the operation counts as {@linkplain #waiting waiting}. A stopped timer is recorded on {@code cause}.
     *
     * @return true when the send was scheduled; false when the caller must give up with {@code cause}
     */
    boolean resendLater(Stranded operation, Runnable send, Throwable cause, int failedSends, long retryUntilNanos) {
        if (!Futures.retryable(cause) || nanoTime() - retryUntilNanos >= 0) {
            return false;
        }
        if (!waiting(operation)) {
            cause.addSuppressed(new RedisClosedException("the client closed before a retry"));
            return false;
        }
        try {
            schedule(() -> {
                resumed(operation);
                send.run();
            }, Backoff.COMMAND_RETRY.delayNanos(failedSends), TimeUnit.NANOSECONDS);
            return true;
        } catch (RuntimeException timerStopped) {
            resumed(operation);
            cause.addSuppressed(timerStopped);
            return false;
        }
    }

    /**
     * Records that {@code operation} now waits for the timer or a message (again: idempotent).
     *
     * @return false when the client's timer has already stopped: nothing will wake it, so the
     *     caller ends it now
     */
    boolean waiting(Stranded operation) {
        waiting.add(operation);
        if (timerStopped) {
            waiting.remove(operation);
            return false;
        }
        return true;
    }

    /** {@code operation} no longer waits (it runs again, or it ended). */
    void resumed(Stranded operation) {
        waiting.remove(operation);
    }

    /**
     * Ends every operation still waiting for the timer or a message, with a
     * {@link RedisClosedException}; called once the client's timer has stopped (its scheduled tasks
     * will never run). Operations that start waiting afterwards end at once ({@link #waiting}).
     */
    void endStranded() {
        timerStopped = true;
        for (Stranded operation : waiting) {
            if (waiting.remove(operation)) {
                operation.clientClosed(new RedisClosedException("the hasp client was closed while this lock "
                        + "operation waited (" + operation + ")"));
            }
        }
    }
}
