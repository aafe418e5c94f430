package io.hasp.internal.lock;

import io.hasp.RedisClosedException;
import io.hasp.RedisCommands;
import io.hasp.RedisConnectionException;
import io.hasp.RedisServerException;
import io.hasp.RedisTimeoutException;
import io.hasp.internal.Backoff;
import io.hasp.internal.Futures;
import io.hasp.internal.cluster.ClusterCommands;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.lock.HaspLock;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.HoldLostException;
import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock machinery of one client: its holds, its watchdog ({@link LeaseRenewer}), its
 * waiters ({@link LockWaiters}) and the unlock retries, for every {@link LockKind} alike. One per
 * {@code HaspClient} ({@code HaspClient.lockService()}); applications get locks from
 * {@code HaspClient.getLock(name)} (the reentrant kind) or from a lock module built on the
 * kind-taking methods here ({@link #tryAcquire}, {@link #release}, {@link #forceRelease},
 * {@link #holdEnd}): one watchdog task, one hold registry and one subscription per unlock
 * channel serve all kinds of one client. Thread-safe; futures complete on event-loop or timer
 * threads.
 */
public final class LockService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LockService.class);

    /** Most locks renewed by one script call. */
    static final int RENEWAL_BATCH = 100;
    /** How long an idle wait channel keeps its subscription. */
    static final long LINGER_MILLIS = 1_000;

    private final String clientId;
    private final RedisCommands redis;
    private final Timer timer;
    private final LongSupplier clock;
    private final long watchdogLeaseMillis;
    private final long minLeaseMillis;
    private final long unlockRetryNanos;
    private final long latchMillis;
    private final HoldRegistry holds = new HoldRegistry(this::holdLost);
    private final LeaseRenewer renewer;
    private final LockWaiters waiters;
    private final LatchSweeper latches;
    /** Starts every unlock request id of this service: short, random, so ids of all clients differ. */
    private final String requestPrefix = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36) + ':';
    private final AtomicLong requests = new AtomicLong();
    private final ThreadLocal<LockOwner> threadOwners = new ThreadLocal<>();
    private volatile boolean closed;

    /**
     * Creates the lock machinery of one client.
     *
     * @param clientId the client's id, the first half of every owner field
     * @param redis the client's commands
     * @param pubSub the client's pub/sub
     * @param timer the client's shared timer
     * @param watchdogLease the lease the watchdog keeps renewing, every third of it
     * @param timerTick the timer's tick: the shortest lease accepted (a shorter one would expire
     *     before the timer could act on it)
     * @param commandTimeout the client's command timeout; an unlock is retried for about twice it
     * @throws IllegalArgumentException when an argument is null or a duration is not positive
     */
    public LockService(String clientId, RedisCommands redis, PubSub pubSub, Timer timer, Duration watchdogLease,
            Duration timerTick, Duration commandTimeout) {
        this(clientId, redis, pubSub, timer, watchdogLease, timerTick, commandTimeout, System::nanoTime);
    }

    LockService(String clientId, RedisCommands redis, PubSub pubSub, Timer timer, Duration watchdogLease,
            Duration timerTick, Duration commandTimeout, LongSupplier clock) {
        LockArguments.name("clientId", clientId);
        LockArguments.notNull("redis", redis);
        LockArguments.notNull("pubSub", pubSub);
        LockArguments.notNull("timer", timer);
        this.minLeaseMillis = Math.max(1, LockArguments.notNull("timerTick", timerTick).toMillis());
        this.watchdogLeaseMillis = LockArguments.positiveMillis("watchdogLease", watchdogLease, 3 * minLeaseMillis);
        long timeoutMillis = LockArguments.positiveMillis("commandTimeout", commandTimeout, 1);
        this.clientId = clientId;
        this.redis = redis;
        this.timer = timer;
        this.clock = clock;
        this.unlockRetryNanos = TimeUnit.MILLISECONDS.toNanos(2 * timeoutMillis);
        this.latchMillis = 4 * timeoutMillis + 1_000;
        if (redis instanceof ClusterCommands cluster) {
            // One renewal call per master and kind, whatever the slots of its locks.
            ClusterRenewal renewal = new ClusterRenewal(cluster);
            this.renewer = new LeaseRenewer(holds, timer, clock, watchdogLeaseMillis, RENEWAL_BATCH, renewal,
                    renewal::batchGroup);
        } else {
            this.renewer = new LeaseRenewer(holds, timer, clock, watchdogLeaseMillis, RENEWAL_BATCH,
                    (kind, names, owners, lease) -> kind.renew(redis, names, owners, lease));
        }
        this.waiters = new LockWaiters(pubSub, timer, LINGER_MILLIS);
        this.latches = new LatchSweeper(redis, timer);
    }

    /**
     * The lock named {@code name}. Cheap: locks are views; all state lives in Redis and here.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspLock lock(String name) {
        return new KindLock(this, ReentrantKind.INSTANCE, LockArguments.name("name", name));
    }

    /** This client's id, the first half of every owner field. */
    public String clientId() {
        return clientId;
    }

    /** The watchdog lease, in milliseconds. */
    public long watchdogLeaseMillis() {
        return watchdogLeaseMillis;
    }

    /** The shortest lease accepted, in milliseconds: the timer's tick. */
    public long minLeaseMillis() {
        return minLeaseMillis;
    }

    /** How many batch renewal script calls the watchdog has sent (each renews up to 100 locks). */
    public long renewalCalls() {
        return renewer.calls();
    }

    /** Number of holds this client currently tracks (watchdog and explicit lease), of every kind. */
    public int heldLocks() {
        return holds.size();
    }

    /**
     * Number of holds of {@code kind} this client currently tracks.
     *
     * @throws IllegalArgumentException when {@code kind} is null
     */
    public int heldLocks(LockKind kind) {
        return holds.size(LockArguments.notNull("kind", kind));
    }

    /**
     * Stops the watchdog and completes every tracked hold's end with {@link HoldEnd#CLIENT_CLOSED};
     * the locks stay in Redis until their leases run out. Call before the client's timer stops.
     */
    @Override
    public void close() {
        closed = true;
        renewer.close();
        latches.close();
        for (Hold hold : holds.all()) {
            holds.end(hold, HoldEnd.CLIENT_CLOSED);
        }
    }

    /** A hold ended without an unlock: waiters here that parked behind it look again. */
    private void holdLost(Hold hold) {
        if (!hold.kind.handsOver() || waiters == null) {
            return;
        }
        WaitChannel channel = waiters.channel(hold.kind.channel(hold.name));
        if (channel != null) {
            channel.holdLost(hold.owner);
        }
    }

    boolean closed() {
        return closed;
    }

    HoldRegistry holds() {
        return holds;
    }

    LeaseRenewer renewer() {
        return renewer;
    }

    LockWaiters waiters() {
        return waiters;
    }

    RedisCommands redis() {
        return redis;
    }

    long nanoTime() {
        return clock.getAsLong();
    }

    Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        return timer.newTimeout(t -> task.run(), Math.max(0, delay), unit);
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

    CompletableFuture<Long> acquire(LockKind kind, String name, LockOwner owner, long leaseMillis, int target) {
        try {
            return kind.acquire(redis, name, owner, leaseMillis, target);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
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
        return acquisition(kind, name, owner, leaseMillis, waitNanos).start();
    }

    /**
     * Like {@link #tryAcquire} with no deadline, as a future that completes with null once the
     * lock is held (it never completes with "not acquired"); cancelling it cancels the acquisition.
     */
    CompletableFuture<Void> acquireUntilHeld(LockKind kind, String name, LockOwner owner, long leaseMillis) {
        return acquisition(kind, name, owner, leaseMillis, -1).startLocking();
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
        return new Acquisition(this, kind, name, owner, leaseMillis, waitNanos);
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
        Hold hold = holds.get(kind, name, owner);
        Unlock unlock = new Unlock(kind, name, owner, hold, kind.unlockLatchPrefix(name) + requestPrefix + requests.incrementAndGet(),
                hold != null ? hold.leaseMillis() : watchdogLeaseMillis, nanoTime() + unlockRetryNanos);
        CompletableFuture<Void> renewal = hold != null ? hold.beginClosing() : null;
        if (renewal == null) {
            unlock.send();
        } else {
            renewal.whenComplete((v, e) -> unlock.send());
        }
        return unlock;
    }

    /**
     * One unlock request, re-sent with the same request id until confirmed or out of budget; it is
     * itself the future the caller gets.
     */
    private final class Unlock extends ParkingFuture<Void> implements BiConsumer<Long, Throwable> {
        final LockKind kind;
        final String name;
        final LockOwner owner;
        final Hold hold;
        /** The key recording this request's outcome, the same for every send. */
        final String latch;
        final long leaseMillis;
        final long retryUntilNanos;
        int failedSends;
        boolean sent;
        long firstSentNanos;
        /** The parked local waiter this unlock hands the lock to, with its channel; or null. */
        WaitChannel successorChannel;
        Wake successor;

        Unlock(LockKind kind, String name, LockOwner owner, Hold hold, String latch, long leaseMillis,
                long retryUntilNanos) {
            this.kind = kind;
            this.name = name;
            this.owner = owner;
            this.hold = hold;
            this.latch = latch;
            this.leaseMillis = leaseMillis;
            this.retryUntilNanos = retryUntilNanos;
        }

        void send() {
            if (!sent) {
                sent = true;
                firstSentNanos = nanoTime();
                claimSuccessor();
            }
            CompletableFuture<Long> reply;
            try {
                if (successor != null) {
                    Acquisition next = successor.acquisition;
                    reply = kind.releaseTo(redis, name, owner, latch, leaseMillis, latchMillis, next.owner(),
                            next.leaseMillis());
                } else {
                    reply = kind.release(redis, name, owner, latch, leaseMillis, latchMillis);
                }
            } catch (RuntimeException e) {
                reply = CompletableFuture.failedFuture(e);
            }
            LockFutures.whenDone(reply, this);
        }

        /**
         * When this unlock gives back the owner's last hold and a local waiter of the same kind and
         * lock is parked, claims it: the unlock script then hands the lock straight to it.
         */
        private void claimSuccessor() {
            if (hold == null || hold.count() != 1 || !kind.handsOver()) {
                return;
            }
            WaitChannel channel = waiters.channel(kind.channel(name));
            if (channel == null) {
                return;
            }
            Wake claimed = channel.claimSuccessor(kind, name, owner);
            if (claimed != null) {
                successorChannel = channel;
                successor = claimed;
            }
        }

        /**
         * Tells the lock's waiters here that this owner no longer holds it (or may not: an unlock
         * that failed), so that new acquisitions stop parking behind it.
         */
        private void noLongerHeldHere() {
            if (kind.handsOver()) {
                WaitChannel channel = channel();
                if (channel != null) {
                    channel.released(owner);
                }
            }
        }

        /** The lock's wait channel here, or null when nobody here waits for it. */
        private WaitChannel channel() {
            return successorChannel != null ? successorChannel : waiters.channel(kind.channel(name));
        }

        /** Tells the claimed successor, if any, how the hand-over ended. */
        private void reportToSuccessor(boolean handedOver, Throwable error) {
            if (successor == null) {
                return;
            }
            if (handedOver) {
                successorChannel.handedOver(successor.acquisition);
            } else {
                successorChannel.handOverFailed();
            }
            successor.acquisition.handOverEnded(handedOver, error, firstSentNanos);
        }

        /** The reply to one send: {@code outcome} or {@code error}. */
        @Override
        public void accept(Long outcome, Throwable error) {
            if (error != null) {
                Throwable cause = Futures.unwrap(error);
                if (retryable(cause) && nanoTime() - retryUntilNanos < 0) {
                    try {
                        schedule(this::send, Backoff.COMMAND_RETRY.delayNanos(failedSends++), TimeUnit.NANOSECONDS);
                        return;
                    } catch (RuntimeException timerStopped) {
                        cause.addSuppressed(timerStopped);
                    }
                }
                if (hold != null) {
                    hold.endClosing(0);
                }
                noLongerHeldHere();
                reportToSuccessor(false, cause);
                completeExceptionally(cause);
                return;
            }
            if (outcome == null) {
                HoldEnd ended = null;
                String why = null;
                if (hold != null) {
                    boolean expired = hold.expired(nanoTime(), 0);
                    ended = expired ? HoldEnd.EXPIRED : HoldEnd.LOST;
                    why = expired ? "its lease of " + hold.leaseMillis() + " ms ran out"
                            : "it was no longer in Redis: the key was deleted or taken over, or the server lost it";
                    holds.end(hold, ended);
                    holds.forgetEnded(hold.key);
                } else {
                    ended = holds.forgetEnded(HoldRegistry.key(kind, name, owner));
                    if (ended != null) {
                        why = ended == HoldEnd.EXPIRED ? "its lease ran out"
                                : "the watchdog found it gone, or could not reach Redis before the lease ran out";
                    }
                }
                noLongerHeldHere();
                reportToSuccessor(false, null);
                completeExceptionally(ended != null
                        ? new HoldLostException(kind + " lock " + name + ": the hold of " + owner
                                + " ended before this unlock (" + ended + ": " + why + ")", ended)
                        : new IllegalMonitorStateException(kind + " lock " + name + " is not held by " + owner
                                + " (it is held by another owner, or by nobody)"));
                return;
            }
            latches.forget(latch);
            boolean handedOver = successor != null && outcome == UnlockScript.HANDED_OVER;
            if (outcome != 0L) {  // 0: the owner still holds it; >= 1: its hold ended
                if (hold != null) {
                    holds.end(hold, HoldEnd.RELEASED);
                }
                noLongerHeldHere();
                if (!handedOver && !kind.releaseWakesAll()) {
                    WaitChannel channel = channel();
                    if (channel != null) {
                        channel.handOff(nanoTime());
                    }
                }
            } else if (hold != null) {
                hold.endClosing(Math.max(1, hold.count() - 1));
            }
            reportToSuccessor(handedOver, null);
            complete(null);
        }
    }

    /** Undoes, best effort, an acquisition whose outcome stayed unknown when its caller gave up. */
    void rollback(LockKind kind, String name, LockOwner owner, int target, long leaseMillis) {
        try {
            kind.rollback(redis, name, owner, target, leaseMillis).whenComplete((undone, e) -> {
                if (e != null) {
                    log.debug("rollback of an abandoned acquisition of {} lock {} failed (its lease will expire): {}",
                            kind, name, e.toString());
                } else if (Boolean.TRUE.equals(undone)) {
                    waiters.handOff(kind.channel(name), nanoTime());
                }
            });
        } catch (RuntimeException e) {
            log.debug("rollback of {} lock {} not sent: {}", kind, name, e.toString());
        }
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
        Hold hold = holds.get(kind, name, owner);
        if (hold != null && hold.watchdog()) {
            return CompletableFuture.failedFuture(new IllegalStateException(kind + " lock " + name + ": the hold of "
                    + owner + " is renewed by the watchdog (extend is for holds taken with a lease time)"));
        }
        LeaseExtension extension = new LeaseExtension(this, holds, kind, name, owner, leaseMillis, hold,
                nanoTime() + unlockRetryNanos);
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
        for (Hold hold : holds.onLock(kind, name)) {
            holds.end(hold, HoldEnd.RELEASED);
        }
        CompletableFuture<Boolean> reply;
        try {
            reply = kind.forceRelease(redis, name);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return reply.thenApply(freed -> {
            if (Boolean.TRUE.equals(freed)) {
                waiters.handOff(kind.channel(name), nanoTime());
            }
            return freed;
        });
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
        Hold hold = holds.get(kind, name, owner);
        return hold == null ? CompletableFuture.completedFuture(HoldEnd.RELEASED) : hold.end;
    }

    /** Whether an acquire or unlock that failed with {@code cause} may be sent again. */
    static boolean retryable(Throwable cause) {
        if (cause instanceof RedisClosedException) {
            return false;
        }
        if (cause instanceof RedisConnectionException || cause instanceof RedisTimeoutException) {
            return true;
        }
        if (cause instanceof RedisServerException server) {
            String code = server.code();
            return List.of("LOADING", "BUSY", "READONLY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN").contains(code);
        }
        return false;
    }
}
