package io.hasp.lock.rw;

import io.hasp.HaspClient;
import io.hasp.client.RedisClosedException;
import io.hasp.client.RedisCommands;
import io.hasp.client.RedisConnectionException;
import io.hasp.client.RedisServerException;
import io.hasp.client.RedisTimeoutException;
import io.hasp.lock.HoldEnd;
import io.hasp.lock.LockOwner;
import io.netty.util.Timeout;
import io.netty.util.Timer;
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
 * The read/write lock machinery of one client: its holds, its watchdog ({@link RwRenewer}), its
 * waiters ({@link RwWaiters}) and the script calls. One per {@link HaspClient}, made by
 * {@link HaspReadWriteLocks#of(HaspClient)}. Thread-safe.
 */
final class RwService {

    private static final Logger log = LoggerFactory.getLogger(RwService.class);

    /** Most holds renewed by one script call. */
    static final int RENEWAL_BATCH = 100;

    private static final List<String> RETRYABLE_CODES =
            List.of("LOADING", "BUSY", "READONLY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN");

    private final String clientId;
    private final RedisCommands redis;
    private final Timer timer;
    private final LongSupplier clock;
    private final long watchdogLeaseMillis;
    private final long minLeaseMillis;
    private final long unlockRetryNanos;
    private final long latchMillis;
    private final RwHolds holds = new RwHolds();
    private final RwRenewer renewer;
    private final RwWaiters waiters;
    private final AtomicLong requests = new AtomicLong();

    RwService(HaspClient client) {
        this.clientId = client.id();
        this.redis = client.commands();
        this.timer = client.timer();
        this.clock = System::nanoTime;
        this.minLeaseMillis = Math.max(1, client.config().timerTick().toMillis());
        this.watchdogLeaseMillis = client.config().watchdogLease().toMillis();
        long timeoutMillis = Math.max(1, client.config().commandTimeout().toMillis());
        this.unlockRetryNanos = TimeUnit.MILLISECONDS.toNanos(2 * timeoutMillis);
        this.latchMillis = 4 * timeoutMillis + 1_000;
        this.renewer = new RwRenewer(holds, timer, clock, watchdogLeaseMillis, RENEWAL_BATCH,
                (names, owners, modes, lease) -> RwRenewScript.run(redis, names, owners, modes, lease));
        this.waiters = new RwWaiters(client.pubSub());
    }

    String clientId() {
        return clientId;
    }

    long watchdogLeaseMillis() {
        return watchdogLeaseMillis;
    }

    long minLeaseMillis() {
        return minLeaseMillis;
    }

    long renewalCalls() {
        return renewer.calls();
    }

    RwHolds holds() {
        return holds;
    }

    RwRenewer renewer() {
        return renewer;
    }

    RwWaiters waiters() {
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

    CompletableFuture<Long> acquire(String name, LockMode mode, LockOwner owner, long leaseMillis, int target) {
        try {
            return mode == LockMode.READ
                    ? ReadAcquireScript.run(redis, name, owner.field(), leaseMillis, target)
                    : WriteAcquireScript.run(redis, name, owner.field(), leaseMillis, target);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Starts an acquisition; see {@link RwAcquisition}. */
    CompletableFuture<Boolean> tryAcquire(String name, LockMode mode, LockOwner owner, long leaseMillis,
            long waitNanos) {
        return new RwAcquisition(this, name, mode, owner, leaseMillis, waitNanos).start();
    }

    private CompletableFuture<Long> unlockScript(String name, LockMode mode, LockOwner owner, String requestId,
            int expectedCount) {
        try {
            return mode == LockMode.READ
                    ? ReadUnlockScript.run(redis, name, owner.field(), requestId, latchMillis, expectedCount)
                    : WriteUnlockScript.run(redis, name, owner.field(), requestId, latchMillis, expectedCount);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Gives back one {@code mode} hold of {@code owner} on {@code name}. Completes normally when it
     * was given back; fails with {@link IllegalMonitorStateException} when the owner did not hold
     * it, or with the Redis error when the unlock could not be confirmed within its retry budget.
     * A re-sent unlock reuses its request id, so a retry after a lost reply answers what the
     * first send did.
     */
    CompletableFuture<Void> release(String name, LockMode mode, LockOwner owner) {
        RwHold hold = holds.get(name, mode, owner.field());
        Unlock unlock = new Unlock(name, mode, owner, hold, clientId + ':' + requests.incrementAndGet(),
                nanoTime() + unlockRetryNanos);
        CompletableFuture<Void> gate = hold != null ? hold.beginClosing() : CompletableFuture.completedFuture(null);
        gate.whenComplete((v, e) -> unlock.send());
        return unlock.result;
    }

    /** One unlock request, re-sent with the same request id until confirmed or out of budget. */
    private final class Unlock {
        final String name;
        final LockMode mode;
        final LockOwner owner;
        final RwHold hold;
        final String requestId;
        final long retryUntilNanos;
        final CompletableFuture<Void> result = new CompletableFuture<>();
        long backoffMillis = 5;

        Unlock(String name, LockMode mode, LockOwner owner, RwHold hold, String requestId, long retryUntilNanos) {
            this.name = name;
            this.mode = mode;
            this.owner = owner;
            this.hold = hold;
            this.requestId = requestId;
            this.retryUntilNanos = retryUntilNanos;
        }

        void send() {
            unlockScript(name, mode, owner, requestId, 0).whenComplete(this::onReply);
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
                result.completeExceptionally(new IllegalMonitorStateException(mode.name().toLowerCase()
                        + " lock " + name + " is not held by " + owner + " (attempt to unlock a lock held by"
                        + " another owner, or whose lease ran out)"));
                return;
            }
            forget(RwKeys.unlockLatch(name, requestId));
            if (hold != null) {
                // 0: the owner still holds this mode; 1 and 2: its holds in this mode ended.
                if (outcome != 0L) {
                    holds.end(hold, HoldEnd.RELEASED);
                } else {
                    hold.endClosing(Math.max(1, hold.count() - 1));
                }
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
    void rollback(String name, LockMode mode, LockOwner owner, int target) {
        String requestId = clientId + ':' + requests.incrementAndGet();
        unlockScript(name, mode, owner, requestId, target).whenComplete((outcome, e) -> {
            if (e != null) {
                log.debug("undo of an abandoned {} acquisition of {} failed (its lease will expire): {}",
                        mode, name, e.toString());
            } else if (outcome != null) {
                forget(RwKeys.unlockLatch(name, requestId));
            }
        });
    }

    /** Frees lock {@code name} if held in {@code mode}, whoever holds it; the future is true when it was. */
    CompletableFuture<Boolean> forceRelease(String name, LockMode mode) {
        for (RwHold hold : holds.on(name, mode)) {
            holds.end(hold, HoldEnd.RELEASED);
        }
        try {
            return RwForceUnlockScript.run(redis, name, mode);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    CompletableFuture<HoldEnd> holdEnd(String name, LockMode mode, LockOwner owner) {
        RwHold hold = holds.get(name, mode, owner.field());
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
        return cause instanceof RedisServerException server && RETRYABLE_CODES.contains(server.code());
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
