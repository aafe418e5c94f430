package io.hasp.internal.sync;

import io.hasp.ReplicaAcksException;
import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.hasp.lock.HoldEnd;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link HaspPermitExpirableSemaphore} of one name on one client: scripts on the client's topology
 * ({@link ExpirableScripts}), waiting through the client's {@link PermitWaiters} on the plain semaphore's channel. A
 * cheap view; thread-safe.
 */
public final class RedisPermitExpirableSemaphore extends CountedPermits implements HaspPermitExpirableSemaphore {

    /** A lease argument's stand-in for "kept by the watchdog". */
    private static final long WATCHDOG = -1;
    /** How many give-backs a failed acquisition sends at most. */
    private static final int GIVE_BACK_SENDS = 10;
    private static final Logger log = LoggerFactory.getLogger(RedisPermitExpirableSemaphore.class);

    private final WatchdogPermits watchdog;

    /**
     * The permit-expirable semaphore {@code name} of a client, whose permits taken without a lease {@code watchdog}
     * keeps.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public RedisPermitExpirableSemaphore(Topology topology, PermitWaiters waiters, Timer timer,
            WatchdogPermits watchdog, String name) {
        super(topology, waiters, timer, name, "a blocking HaspPermitExpirableSemaphore call");
        this.watchdog = watchdog;
    }

    private static long leaseMillis(Duration leaseTime) {
        if (leaseTime == null || leaseTime.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("leaseTime: " + leaseTime + " (expected: at least 1 ms)");
        }
        return leaseTime.compareTo(Duration.ofMillis(Long.MAX_VALUE / 4)) > 0 ? Long.MAX_VALUE / 4
                : leaseTime.toMillis();
    }

    private static Duration duration(long amount, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        return Duration.ofNanos(unit.toNanos(amount));
    }

    @Override
    public CompletableFuture<Integer> availablePermitsAsync() {
        return Futures.sent(() -> ExpirableScripts.available(topology, name))
                .thenApply(CountedPermits::clamped);
    }

    @Override
    public String acquire() throws InterruptedException {
        return SyncWait.awaitInterruptibly(acquireAsync(), "a blocking HaspPermitExpirableSemaphore acquisition");
    }

    @Override
    public String tryAcquire() {
        return join(tryAcquireAsync());
    }

    @Override
    public String tryAcquire(Duration waitTime) throws InterruptedException {
        return SyncWait.awaitInterruptibly(tryAcquireAsync(waitTime),
                "a blocking HaspPermitExpirableSemaphore acquisition");
    }

    @Override
    public String tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException {
        return tryAcquire(duration(waitTime, unit));
    }

    @Override
    public CompletableFuture<String> acquireAsync() {
        return new Lease(WATCHDOG).start(-1);
    }

    @Override
    public CompletableFuture<String> tryAcquireAsync() {
        return new Lease(WATCHDOG).start(0);
    }

    @Override
    public CompletableFuture<String> tryAcquireAsync(Duration waitTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        return new Lease(WATCHDOG).start(Math.max(0, waitTime.toNanos()));
    }

    @Override
    public CompletableFuture<HoldEnd> leaseEnd(String permitId) {
        PermitIds.parse(permitId);
        return watchdog.end(name, permitId);
    }

    @Override
    public String acquire(Duration leaseTime) throws InterruptedException {
        return SyncWait.awaitInterruptibly(acquireAsync(leaseTime), "a blocking HaspPermitExpirableSemaphore acquisition");
    }

    @Override
    public String acquire(long leaseTime, TimeUnit unit) throws InterruptedException {
        return acquire(duration(leaseTime, unit));
    }

    @Override
    public String tryAcquire(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return SyncWait.awaitInterruptibly(tryAcquireAsync(waitTime, leaseTime),
                "a blocking HaspPermitExpirableSemaphore acquisition");
    }

    @Override
    public String tryAcquire(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        return tryAcquire(duration(waitTime, unit), duration(leaseTime, unit));
    }

    @Override
    public CompletableFuture<String> acquireAsync(Duration leaseTime) {
        return new Lease(leaseMillis(leaseTime)).start(-1);
    }

    @Override
    public CompletableFuture<String> tryAcquireAsync(Duration waitTime, Duration leaseTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        return new Lease(leaseMillis(leaseTime)).start(Math.max(0, waitTime.toNanos()));
    }

    @Override
    public void release(String permitId) {
        join(releaseAsync(permitId));
    }

    @Override
    public CompletableFuture<Void> releaseAsync(String permitId) {
        byte[] id = PermitIds.parse(permitId);
        return watchdog.releasing(name, permitId, () -> ExpirableScripts.release(topology, name, id))
                .thenApply(released -> {
                    if (released == 1) {
                        return null;
                    }
                    throw new IllegalArgumentException(this + ": permit " + permitId + (released == 2
                            ? " was leased, but its lease had run out (it is free again)"
                            : " is not leased (given back already, never leased, or reclaimed after its lease ran"
                                    + " out)"));
                });
    }

    @Override
    public boolean tryRelease(String permitId) {
        return join(tryReleaseAsync(permitId));
    }

    @Override
    public CompletableFuture<Boolean> tryReleaseAsync(String permitId) {
        byte[] id = PermitIds.parse(permitId);
        return watchdog.releasing(name, permitId, () -> ExpirableScripts.release(topology, name, id))
                .thenApply(released -> released == 1);
    }

    @Override
    public boolean updateLeaseTime(String permitId, Duration leaseTime) {
        return join(updateLeaseTimeAsync(permitId, leaseTime));
    }

    @Override
    public boolean updateLeaseTime(String permitId, long leaseTime, TimeUnit unit) {
        return updateLeaseTime(permitId, duration(leaseTime, unit));
    }

    @Override
    public CompletableFuture<Boolean> updateLeaseTimeAsync(String permitId, Duration leaseTime) {
        byte[] id = PermitIds.parse(permitId);
        long millis = leaseMillis(leaseTime);
        if (watchdog.keeps(name, permitId)) {
            throw new IllegalStateException(this + ": permit " + permitId + " is kept by the watchdog (it was taken"
                    + " without a lease); updateLeaseTime is for permits taken with one");
        }
        return Futures.sent(() -> ExpirableScripts.update(topology, name, id, millis));
    }

    @Override
    public String toString() {
        return "permit-expirable semaphore " + name;
    }

    /**
     * One acquisition: the id it leases (the same for each of its tries, so that a try sent twice leases one permit),
     * and when its last failed try said a lease can run out.
     */
    private final class Lease {
        private final byte[] id = PermitIds.next();
        private final boolean kept;
        private final long leaseMillis;
        private volatile long nextLookMillis = SyncWait.RECHECK_MILLIS;

        /** @param leaseMillis the lease, or {@link #WATCHDOG} for a permit the watchdog keeps */
        Lease(long leaseMillis) {
            this.kept = leaseMillis == WATCHDOG;
            this.leaseMillis = kept ? watchdog.leaseMillis() : leaseMillis;
        }

        CompletableFuture<String> start(long waitNanos) {
            SyncWait wait = new SyncWait(waiters, timer, SemaphoreScripts.channel(name), false, this::tryOnce,
                    this::giveBack, () -> nextLookMillis, "expirable-semaphore", name, waitNanos);
            return wait.startAs(leased -> leased ? PermitIds.text(id) : null);
        }

        private CompletableFuture<Boolean> tryOnce() {
            long sentNanos = System.nanoTime();
            CompletableFuture<Long> reply = ExpirableScripts.acquire(topology, name, id, leaseMillis);
            return reply.handle((answer, error) -> {
                if (error != null) {
                    giveBackAfterLoss(1);   // its reply may have been lost after it ran: a permit leased goes back
                    throw new CompletionException(Futures.unwrap(error));
                }
                if (answer == ExpirableScripts.LEASED) {
                    if (kept) {
                        watchdog.keep(name, id, sentNanos);
                    }
                    return true;
                }
                nextLookMillis = answer > 0 ? answer : SyncWait.RECHECK_MILLIS;
                return false;
            });
        }

        /**
         * After a try whose reply was lost: gives its id's permit back now, and again a re-check later (the try may
         * still be on its way, stalled on its connection, and run after the first give-back), resending a give-back
         * that failed every second, {@link #GIVE_BACK_SENDS} sends at most. Sending it again is harmless: the id is
         * this acquisition's alone, and it has failed.
         */
        private void giveBackAfterLoss(int send) {
            Futures.sent(() -> ExpirableScripts.release(topology, name, id)).whenComplete((released, sendError) -> {
                // A give-back that too few replicas confirmed ran all the same.
                Throwable error = sendError == null || Futures.unwrap(sendError) instanceof ReplicaAcksException
                        ? null : sendError;
                if (send >= GIVE_BACK_SENDS) {
                    if (error != null) {
                        log.warn("{}: a permit that a failed acquisition may have leased could not be given back; it"
                                + " comes back when its lease of {} ms runs out: {}", RedisPermitExpirableSemaphore.this,
                                leaseMillis, error.toString());
                    }
                    return;
                }
                if (error != null || send == 1) {
                    try {
                        timer.newTimeout(t -> giveBackAfterLoss(send + 1),
                                error != null ? 1_000 : SyncWait.RECHECK_MILLIS, TimeUnit.MILLISECONDS);
                    } catch (IllegalStateException stopped) {
                        // The client closed: the lease runs out in Redis.
                    }
                }
            });
        }

        private CompletableFuture<Long> giveBack() {
            if (kept) {
                watchdog.forget(name, id);
            }
            return Futures.sent(() -> ExpirableScripts.release(topology, name, id));
        }
    }
}
