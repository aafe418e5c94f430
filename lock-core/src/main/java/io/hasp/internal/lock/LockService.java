package io.hasp.internal.lock;

import io.hasp.HaspListener;
import io.hasp.RedisCommands;
import io.hasp.inspect.HeldLock;
import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.netty.util.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The lock machinery of one client, for every {@link LockKind} alike: the entry points that check their
 * arguments and start the operation that does the work, an {@link Acquisition}, an {@link Unlock} or a
 * {@link LeaseExtension}, each on the client's one {@link LockContext} (its holds, watchdog, waiters and
 * settings). One per {@code HaspClient} ({@code HaspClient.lockService()}); applications get locks from
 * {@code HaspClient.getLock(name)} (the reentrant kind, made by {@link Locks}) or from a lock module built on the kind-taking
 * methods here ({@link #tryAcquire}, {@link #release}, {@link #forceRelease}, {@link #holdEnd}): one
 * watchdog task, one hold registry and one subscription per unlock channel serve all kinds of one client.
 * Thread-safe; futures complete on event-loop or timer threads.
 */
public final class LockService implements AutoCloseable {

    private final String clientId;
    private final long minLeaseMillis;
    private final long commandTimeoutMillis;
    private final LockContext context;
    private final ThreadLocal<LockOwner> threadOwners = new ThreadLocal<>();

    /**
     * Creates the lock machinery of one client.
     *
     * @param clientId the client's id, the first half of every owner field
     * @param topology where the client's locks live: its commands, subscriptions and channel kind
     * @param timer the client's shared timer
     * @param watchdogLease the lease the watchdog keeps renewing, every third of it
     * @param timerTick the timer's tick: the shortest lease accepted (a shorter one would expire
     *     before the timer could act on it)
     * @param commandTimeout the client's command timeout; an unlock is retried for about twice it
     * @throws IllegalArgumentException when an argument is null or a duration is not positive
     */
    public LockService(String clientId, Topology topology, Timer timer, Duration watchdogLease,
            Duration timerTick, Duration commandTimeout) {
        this(clientId, topology, timer, watchdogLease, timerTick, commandTimeout, (HaspListener) null);
    }

    /**
     * Like {@link #LockService(String, Topology, Timer, Duration, Duration, Duration)}, telling {@code listener}
     * (unless null) of lock events and master changes.
     */
    public LockService(String clientId, Topology topology, Timer timer, Duration watchdogLease,
            Duration timerTick, Duration commandTimeout, HaspListener listener) {
        this(clientId, topology, timer, watchdogLease, timerTick, commandTimeout, System::nanoTime, listener);
    }

    LockService(String clientId, Topology topology, Timer timer, Duration watchdogLease,
            Duration timerTick, Duration commandTimeout, LongSupplier clock) {
        this(clientId, topology, timer, watchdogLease, timerTick, commandTimeout, clock, null);
    }

    LockService(String clientId, Topology topology, Timer timer, Duration watchdogLease,
            Duration timerTick, Duration commandTimeout, LongSupplier clock, HaspListener listener) {
        LockArguments.name("clientId", clientId);
        LockArguments.notNull("topology", topology);
        LockArguments.notNull("timer", timer);
        ScriptClasses.load();
        this.minLeaseMillis = Math.max(1, LockArguments.notNull("timerTick", timerTick).toMillis());
        long watchdogLeaseMillis = LockArguments.positiveMillis("watchdogLease", watchdogLease, 3 * minLeaseMillis);
        long timeoutMillis = LockArguments.positiveMillis("commandTimeout", commandTimeout, 1);
        this.clientId = clientId;
        this.commandTimeoutMillis = timeoutMillis;
        this.context = new LockContext(clientId, topology, timer, clock, watchdogLeaseMillis, timeoutMillis, listener);
        // A master changed (failover, switch, moved slot): check every watchdog hold now, so that one the
        // new master lacks ends LOST at once rather than at the next pass, a third of a lease later.
        topology.onMastersMoved(change -> {
            context.mastersMoved(change);
            context.renewer.renewAfter(change);
        });
        if (context.events != null) {
            topology.onMastersMoved(context.events::topologyChanged);
        }
    }

    /** This client's id, the first half of every owner field. */
    public String clientId() {
        return clientId;
    }

    /** How many replicas confirm this client's scripts ({@link io.hasp.HaspConfig#replicaAcks()}). */
    public io.hasp.ReplicaAcks replicaAcks() {
        return context.topology.replicaAcks();
    }

    /** The client's command timeout, in milliseconds: a {@code WAIT} must answer within it. */
    long commandTimeoutMillis() {
        return commandTimeoutMillis;
    }

    /** The watchdog lease, in milliseconds. */
    public long watchdogLeaseMillis() {
        return context.watchdogLeaseMillis;
    }

    /** The shortest lease accepted, in milliseconds: the timer's tick. */
    public long minLeaseMillis() {
        return minLeaseMillis;
    }

    /** How many batch renewal script calls the watchdog has sent (each renews up to 100 locks). */
    public long renewalCalls() {
        return context.renewer.calls();
    }

    /**
     * How many watchdog renewal calls the master applied but fewer replicas than the client's
     * {@link io.hasp.ReplicaAcks} confirmed in time (each also logged as a warning).
     */
    public long unconfirmedRenewals() {
        return context.unconfirmed.renewals();
    }

    /** Number of holds this client currently tracks (watchdog and explicit lease), of every kind. */
    public int heldLocks() {
        return context.holds.size();
    }

    /** This client's holds as it records them, a snapshot in no particular order. */
    public List<HeldLock> holds() {
        long nowNanos = System.nanoTime();
        Instant now = Instant.now();
        List<HeldLock> holds = new ArrayList<>();
        for (Hold hold : context.holds.all()) {
            long token = hold.token();
            holds.add(new HeldLock(hold.name, hold.kind.toString(), hold.owner, hold.count(),
                    now.minusNanos(nowNanos - hold.beganNanos()),
                    Duration.ofNanos(Math.max(0, hold.validUntilNanos() - nowNanos)), hold.watchdog(),
                    token > 0 ? token : null));
        }
        return holds;
    }

    /** Holds of this client that ended lost or expired, before their unlock, since it started. */
    public long lostHolds() {
        return context.lostHolds.sum();
    }

    /**
     * Number of holds of {@code kind} this client currently tracks (those of views that confirm it with replicas
     * included).
     *
     * @throws IllegalArgumentException when {@code kind} is null
     */
    public int heldLocks(LockKind kind) {
        return context.holds.size(LockArguments.notNull("kind", kind));
    }

    /**
     * The first step of closing the client, while it still has its connections: its process leaves the line of every
     * lock it waited for, so that none is granted to it any more, and a grant that came as it closed goes on at once
     * instead of when its lease runs out. The future completes (never exceptionally) once every line answered.
     */
    public CompletableFuture<Void> leaveLines() {
        return context.waiters.leaveLines();
    }

    /**
     * Stops the watchdog and completes every tracked hold's end with {@link HoldEnd#CLIENT_CLOSED};
     * the locks stay in Redis until their leases run out. Call before the client's timer stops.
     */
    @Override
    public void close() {
        context.renewer.close();
        context.latches.close();
        for (Hold hold : context.holds.all()) {
            context.holds.end(hold, HoldEnd.CLIENT_CLOSED);
        }
    }

    /**
     * The fencing token of {@code owner}'s current hold on lock {@code name} of {@code kind}, as this
     * client recorded it: empty when it does not hold it, or the kind issues no tokens.
     */
    OptionalLong token(LockKind kind, String name, LockOwner owner) {
        Hold hold = context.holds.get(kind, name, owner);
        long token = hold == null ? 0 : hold.token();
        return token > 0 ? OptionalLong.of(token) : OptionalLong.empty();
    }

    /**
     * Ends every lock operation still waiting for the timer or an unlock message (a blocked
     * {@code lock()}, a pending {@code lockAsync}, an unlock waiting to be re-sent) with a
     * {@link io.hasp.RedisClosedException}. Call once the client's timer has stopped: what it had
     * scheduled will never run. Operations that would start waiting afterwards fail at once.
     */
    public void endStranded() {
        context.endStranded();
    }

    /** What this client's lock operations share (for tests that drive one operation directly). */
    LockContext context() {
        return context;
    }

    /** The waiters of this client's locks (for tests). */
    LockWaiters waiters() {
        return context.waiters;
    }

    RedisCommands redis() {
        return context.redis;
    }

    /** The owner {@code holderId} of this client: {@code LockOwner.of(clientId(), holderId)}. */
    public LockOwner owner(long holderId) {
        return LockOwner.of(clientId, holderId);
    }

    /** The calling thread's owner, the one blocking lock calls use; made once per thread and client. */
    @SuppressWarnings("deprecation")  // Thread.threadId() needs Java 19; getId() is the same number
    public LockOwner currentOwner() {
        LockOwner owner = threadOwners.get();
        if (owner == null) {
            owner = owner(Thread.currentThread().getId());
            threadOwners.set(owner);
        }
        return owner;
    }

    /**
     * Starts acquiring lock {@code name} of {@code kind} for {@code owner}: tries at once and, while
     * someone else holds it, waits for its release on the kind's channel (or the holder's TTL) and
     * tries again, until acquired or {@code waitNanos} have passed. Connection errors and timeouts
     * are retried within the wait; a retried acquire never counts the hold twice. The hold is
     * renewed by the watchdog when {@code leaseMillis} is -1.
     *
     * <p>The future completes with {@code true} (acquired), {@code false} (the wait passed, also
     * when Redis is unreachable) or fails (a non-retryable Redis error, or the kind's own
     * answer, such as an upgrade it refuses); it completes on an event-loop or timer thread.
     * Cancelling or completing it first gives back a hold granted concurrently.
     *
     * @param leaseMillis the lease in milliseconds (at least {@link #minLeaseMillis()}), or -1 for the watchdog
     * @param waitNanos how long to keep trying, in nanoseconds: 0 for one attempt, -1 for no deadline
     * @throws IllegalArgumentException when an argument is null, the name empty or a time out of range
     */
    public CompletableFuture<Boolean> tryAcquire(LockKind kind, String name, LockOwner owner, long leaseMillis,
            long waitNanos) {
        Acquisition acquisition = acquisition(kind, name, owner, leaseMillis, waitNanos);
        LockEvents events = context.events;
        return events == null ? acquisition.start() : events.acquisition(acquisition, acquisition::start);
    }

    /**
     * Like {@link #tryAcquire} with no deadline, as a future that completes with null once the
     * lock is held (it never completes with "not acquired"); cancelling it cancels the acquisition.
     */
    CompletableFuture<Void> acquireUntilHeld(LockKind kind, String name, LockOwner owner, long leaseMillis) {
        Acquisition acquisition = acquisition(kind, name, owner, leaseMillis, -1);
        LockEvents events = context.events;
        return events == null ? acquisition.startLocking() : events.acquisition(acquisition, acquisition::startLocking);
    }

    private Acquisition acquisition(LockKind kind, String name, LockOwner owner, long leaseMillis, long waitNanos) {
        LockArguments.notNull("kind", kind);
        LockArguments.name("name", name);
        LockArguments.notNull("owner", owner);
        if (leaseMillis != -1 && leaseMillis < minLeaseMillis) {
            throw new IllegalArgumentException("leaseMillis: " + leaseMillis + " (expected: >= " + minLeaseMillis
                    + ", the timer's tick, or -1 for the watchdog)");
        }
        if (waitNanos < -1) {
            throw new IllegalArgumentException("waitNanos: " + waitNanos + " (expected: >= 0 or -1 for no deadline)");
        }
        return new Acquisition(context, kind, name, owner, leaseMillis, waitNanos);
    }

    /**
     * Gives back one hold of {@code owner} on lock {@code name} of {@code kind}. Completes normally
     * when the hold was given back (the owner's hold ended, or it still holds with one hold fewer);
     * fails with {@link IllegalMonitorStateException} when the owner did not hold it, or with the
     * Redis error when the unlock could not be confirmed within its retry budget (about twice the
     * command timeout). A re-sent unlock reuses its request id, so a retry after a lost reply
     * answers what the first send did. No watchdog renewal of the hold reaches Redis after the
     * unlock. Completes on an event-loop or timer thread.
     *
     * @throws IllegalArgumentException when an argument is null or the name empty
     */
    public CompletableFuture<Void> release(LockKind kind, String name, LockOwner owner) {
        LockArguments.notNull("kind", kind);
        LockArguments.name("name", name);
        LockArguments.notNull("owner", owner);
        LockEvents events = context.events;
        return events == null ? Unlock.start(context, kind, name, owner)
                : events.release(kind, name, () -> Unlock.start(context, kind, name, owner));
    }

    /**
     * Resets the lease of {@code owner}'s hold on lock {@code name} of {@code kind} to
     * {@code leaseMillis} from now. The future is true when the owner still held the lock (its
     * lease was reset), false when it did not (nothing changed; a hold this client tracked ends as
     * {@link HoldEnd#EXPIRED} or {@link HoldEnd#LOST}). The extension is a plain reset, so a send
     * repeated after a lost reply answers the same; it is retried like an unlock. Completes on an
     * event-loop or timer thread; fails with {@link IllegalStateException} for a hold the watchdog
     * renews.
     *
     * @throws IllegalArgumentException when an argument is null or the name empty
     */
    public CompletableFuture<Boolean> extend(LockKind kind, String name, LockOwner owner, long leaseMillis) {
        LockArguments.notNull("kind", kind);
        LockArguments.name("name", name);
        LockArguments.notNull("owner", owner);
        Hold hold = context.holds.get(kind, name, owner);
        if (hold != null && hold.watchdog()) {
            return CompletableFuture.failedFuture(new IllegalStateException(kind + " lock " + name + ": the hold of "
                    + owner + " is renewed by the watchdog (extend is for holds taken with a lease time)"));
        }
        LeaseExtension extension = new LeaseExtension(context, kind, name, owner, leaseMillis, hold);
        extension.send();
        return extension;
    }

    /**
     * Frees lock {@code name} of {@code kind} whoever holds it (the kind decides what that
     * deletes), ending this client's holds of that kind on it as {@link HoldEnd#RELEASED}. The
     * future is true when there was a hold to free; it completes on an event-loop thread.
     *
     * @throws IllegalArgumentException when an argument is null or the name empty
     */
    public CompletableFuture<Boolean> forceRelease(LockKind kind, String name) {
        LockArguments.notNull("kind", kind);
        LockArguments.name("name", name);
        for (Hold hold : context.holds.onLock(kind, name)) {
            context.holds.end(hold, HoldEnd.RELEASED);
        }
        CompletableFuture<Boolean> reply = Unconfirmed.standing(Futures.sent(() -> kind.forceRelease(context.topology, name)),
                Boolean.class, "forced unlock of " + kind + " lock " + name);
        return reply.thenApply(freed -> {
            if (Boolean.TRUE.equals(freed)) {
                context.waiters.handOff(kind.channel(name), context.nanoTime());
            }
            return freed;
        });
    }

    /**
     * Runs {@code pass} in every pass of this client's watchdog, beside the watchdog holds' renewals, and arms the
     * watchdog: other leases the watchdog keeps (a permit-expirable semaphore's permits taken without a lease).
     *
     * @param pass sends its renewals; its future completes when they settled
     */
    public void renewAlongside(Supplier<CompletableFuture<Void>> pass) {
        context.renewer.renewAlongside(pass);
    }

    /** Arms this client's watchdog, if it is not running yet: a lease kept alongside the holds was just taken. */
    public void startRenewing() {
        context.renewer.start();
    }

    /**
     * Completes when {@code owner}'s current hold on lock {@code name} of {@code kind} ends, telling
     * how ({@link HoldEnd#LOST}: the owner no longer has the lock's protection); completes with
     * {@link HoldEnd#RELEASED} at once when this client tracks no such hold. Completes on an
     * event-loop or timer thread.
     *
     * @throws IllegalArgumentException when an argument is null or the name empty
     */
    public CompletableFuture<HoldEnd> holdEnd(LockKind kind, String name, LockOwner owner) {
        LockArguments.notNull("kind", kind);
        LockArguments.name("name", name);
        LockArguments.notNull("owner", owner);
        Hold hold = context.holds.get(kind, name, owner);
        return hold == null ? CompletableFuture.completedFuture(HoldEnd.RELEASED) : hold.end;
    }

}
