package io.hasp.lock;

import io.hasp.client.RedisClosedException;
import io.hasp.client.RedisCommands;
import io.hasp.client.RedisConnectionException;
import io.hasp.client.RedisServerException;
import io.hasp.client.RedisTimeoutException;
import io.hasp.client.pubsub.PubSub;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock machinery of one client: its holds, its watchdog ({@link LeaseRenewer}), its
 * waiters ({@link LockWaiters}) and the script calls. One per {@code HaspClient}; applications
 * get locks from {@code HaspClient.getLock(name)} rather than from here. Thread-safe.
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
    private final HoldRegistry holds = new HoldRegistry();
    private final LeaseRenewer renewer;
    private final LockWaiters waiters;
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
        this.renewer = new LeaseRenewer(holds, timer, clock, watchdogLeaseMillis, RENEWAL_BATCH,
                (keys, owners, lease) -> RenewScript.run(redis, keys, owners, lease));
        this.waiters = new LockWaiters(pubSub, timer, LINGER_MILLIS);
    }

    /**
     * The lock named {@code name}. Cheap: locks are views; all state lives in Redis and here.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public HaspLock lock(String name) {
        return new HaspLock(this, LockArguments.name("name", name));
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

    /** Number of holds this client currently tracks (watchdog and explicit lease). */
    public int heldLocks() {
        return holds.size();
    }

    /**
     * Stops the watchdog and completes every tracked hold's end with {@link HoldEnd#CLIENT_CLOSED};
     * the locks stay in Redis until their leases run out. Call before the client's timer stops.
     */
    @Override
    public void close() {
        closed = true;
        renewer.close();
        for (Hold hold : holds.all()) {
            holds.end(hold, HoldEnd.CLIENT_CLOSED);
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

    LockOwner owner(long holderId) {
        return LockOwner.of(clientId, holderId);
    }

    /** The calling thread's owner, made once per thread and client. */
    @SuppressWarnings("deprecation")  // Thread.threadId() needs Java 19; getId() is the same number
    LockOwner threadOwner() {
        LockOwner owner = threadOwners.get();
        if (owner == null) {
            owner = owner(Thread.currentThread().getId());
            threadOwners.set(owner);
        }
        return owner;
    }

    CompletableFuture<Long> acquire(String name, LockOwner owner, long leaseMillis, int target) {
        try {
            return AcquireScript.run(redis, name, owner.field(), leaseMillis, target);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Starts an acquisition; see {@link Acquisition}. */
    CompletableFuture<Boolean> tryAcquire(String name, LockOwner owner, long leaseMillis, long waitNanos) {
        return new Acquisition(this, name, owner, leaseMillis, waitNanos).start();
    }

    /**
     * Gives back one hold of {@code owner} on {@code name}. Completes normally when the hold was
     * given back (the lock freed or still held with one hold fewer); fails with
     * {@link IllegalMonitorStateException} when the owner did not hold it, or with the Redis error
     * when the unlock could not be confirmed within its retry budget. A re-sent unlock reuses its
     * request id, so a retry after a lost reply answers what the first send did.
     */
    CompletableFuture<Void> release(String name, LockOwner owner) {
        Hold hold = holds.get(name, owner.field());
        Unlock unlock = new Unlock(name, owner, hold, clientId + ':' + requests.incrementAndGet(),
                hold != null ? hold.leaseMillis() : watchdogLeaseMillis, nanoTime() + unlockRetryNanos);
        CompletableFuture<Void> gate = hold != null ? hold.beginClosing() : CompletableFuture.completedFuture(null);
        gate.whenComplete((v, e) -> unlock.send());
        return unlock.result;
    }

    /** One unlock request, re-sent with the same request id until confirmed or out of budget. */
    private final class Unlock {
        final String name;
        final LockOwner owner;
        final Hold hold;
        final String requestId;
        final long leaseMillis;
        final long retryUntilNanos;
        final CompletableFuture<Void> result = new CompletableFuture<>();
        long backoffMillis = 5;

        Unlock(String name, LockOwner owner, Hold hold, String requestId, long leaseMillis, long retryUntilNanos) {
            this.name = name;
            this.owner = owner;
            this.hold = hold;
            this.requestId = requestId;
            this.leaseMillis = leaseMillis;
            this.retryUntilNanos = retryUntilNanos;
        }

        void send() {
            CompletableFuture<Long> reply;
            try {
                reply = UnlockScript.run(redis, name, owner.field(), requestId, leaseMillis, latchMillis);
            } catch (RuntimeException e) {
                reply = CompletableFuture.failedFuture(e);
            }
            reply.whenComplete(this::onReply);
        }

        private void onReply(Long outcome, Throwable error) {
            if (error != null) {
                Throwable cause = unwrap(error);
                if (retryable(cause) && nanoTime() - retryUntilNanos < 0) {
                    long delay = backoffMillis;
                    backoffMillis = Math.min(200, backoffMillis * 2);
                    try {
                        schedule(this::send, delay, TimeUnit.MILLISECONDS);
                        return;
                    } catch (RuntimeException timerStopped) {
                        cause.addSuppressed(timerStopped);
                    }
                }
                if (hold != null) {
                    hold.endClosing(0);
                }
                result.completeExceptionally(cause);
                return;
            }
            if (outcome == null) {
                if (hold != null) {
                    holds.end(hold, HoldEnd.LOST);
                }
                result.completeExceptionally(new IllegalMonitorStateException("lock " + name
                        + " is not held by " + owner + " (attempt to unlock a lock held by another"
                        + " owner, or whose lease ran out)"));
                return;
            }
            forget(LockKeys.unlockLatch(name, requestId));
            if (outcome == UnlockScript.RELEASED) {
                if (hold != null) {
                    holds.end(hold, HoldEnd.RELEASED);
                }
                waiters.handOff(name);
            } else if (hold != null) {
                hold.endClosing(Math.max(1, hold.count() - 1));
            }
            result.complete(null);
        }
    }

    private void forget(String latch) {
        try {
            redis.del(latch).exceptionally(e -> null);
        } catch (RuntimeException e) {
            log.debug("could not delete unlock latch {}: {}", latch, e.toString());
        }
    }

    /** Undoes, best effort, an acquisition whose outcome stayed unknown when its caller gave up. */
    void rollback(String name, LockOwner owner, int target, long leaseMillis) {
        try {
            RollbackScript.run(redis, name, owner.field(), target, leaseMillis).whenComplete((undone, e) -> {
                if (e != null) {
                    log.debug("rollback of an abandoned acquisition of {} failed (its lease will expire): {}",
                            name, e.toString());
                } else if (undone) {
                    waiters.handOff(name);
                }
            });
        } catch (RuntimeException e) {
            log.debug("rollback of {} not sent: {}", name, e.toString());
        }
    }

    /** Frees lock {@code name} whoever holds it; the future is true when there was a lock. */
    CompletableFuture<Boolean> forceRelease(String name) {
        for (Hold hold : holds.onLock(name)) {
            holds.end(hold, HoldEnd.RELEASED);
        }
        CompletableFuture<Boolean> reply;
        try {
            reply = ForceUnlockScript.run(redis, name);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return reply.thenApply(freed -> {
            if (freed) {
                waiters.handOff(name);
            }
            return freed;
        });
    }

    CompletableFuture<HoldEnd> holdEnd(String name, LockOwner owner) {
        Hold hold = holds.get(name, owner.field());
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

    /** The cause inside the wrappers that CompletableFuture adds. */
    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
