package io.hasp.internal.sync;

import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.hasp.sync.HaspPermitExpirableSemaphore;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The {@link HaspPermitExpirableSemaphore} of one name on one client: scripts on the client's topology
 * ({@link ExpirableScripts}), waiting through the client's {@link PermitWaiters} on the plain semaphore's channel. A
 * cheap view; thread-safe.
 */
public final class RedisPermitExpirableSemaphore extends Synchronizer implements HaspPermitExpirableSemaphore {

    /**
     * The permit-expirable semaphore {@code name} of a client.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public RedisPermitExpirableSemaphore(Topology topology, PermitWaiters waiters, Timer timer, String name) {
        super(topology, waiters, timer, name, "semaphore");
    }

    private static <T> T join(CompletableFuture<T> future) {
        return Futures.join(future, "a blocking HaspPermitExpirableSemaphore call");
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
    public boolean trySetPermits(int permits) {
        return join(trySetPermitsAsync(permits));
    }

    @Override
    public CompletableFuture<Boolean> trySetPermitsAsync(int permits) {
        if (permits < 0) {
            throw new IllegalArgumentException("permits: " + permits + " (expected: at least 0)");
        }
        return Futures.sent(() -> SemaphoreScripts.trySet(topology, name, permits));
    }

    @Override
    public void addPermits(int permits) {
        join(addPermitsAsync(permits));
    }

    @Override
    public CompletableFuture<Void> addPermitsAsync(int permits) {
        return Futures.sent(() -> SemaphoreScripts.release(topology, name, permits)).thenApply(free -> null);
    }

    @Override
    public int availablePermits() {
        return join(availablePermitsAsync());
    }

    @Override
    public CompletableFuture<Integer> availablePermitsAsync() {
        return Futures.sent(() -> ExpirableScripts.available(topology, name))
                .thenApply(free -> (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, free)));
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
    public String tryAcquire(Duration leaseTime) {
        return join(tryAcquireAsync(leaseTime));
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
    public CompletableFuture<String> tryAcquireAsync(Duration leaseTime) {
        return new Lease(leaseMillis(leaseTime)).start(0);
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
        return Futures.sent(() -> ExpirableScripts.release(topology, name, id)).thenApply(released -> {
            if (released == 1) {
                return null;
            }
            throw new IllegalArgumentException(this + ": permit " + permitId + (released == 2
                    ? " was leased, but its lease had run out (it is free again)"
                    : " is not leased (given back already, never leased, or reclaimed after its lease ran out)"));
        });
    }

    @Override
    public boolean tryRelease(String permitId) {
        return join(tryReleaseAsync(permitId));
    }

    @Override
    public CompletableFuture<Boolean> tryReleaseAsync(String permitId) {
        byte[] id = PermitIds.parse(permitId);
        return Futures.sent(() -> ExpirableScripts.release(topology, name, id)).thenApply(released -> released == 1);
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
        private final long leaseMillis;
        private volatile long nextLookMillis = SyncWait.RECHECK_MILLIS;

        Lease(long leaseMillis) {
            this.leaseMillis = leaseMillis;
        }

        CompletableFuture<String> start(long waitNanos) {
            SyncWait wait = new SyncWait(waiters, timer, SemaphoreScripts.channel(name), false, this::tryOnce,
                    this::giveBack, () -> nextLookMillis, RedisPermitExpirableSemaphore.this.toString(), waitNanos);
            return wait.startAs(leased -> leased ? PermitIds.text(id) : null);
        }

        private CompletableFuture<Boolean> tryOnce() {
            CompletableFuture<Long> reply = ExpirableScripts.acquire(topology, name, id, leaseMillis);
            return reply.handle((answer, error) -> {
                if (error != null) {
                    giveBack();   // its reply may have been lost after it ran: a permit leased goes back
                    throw new CompletionException(Futures.unwrap(error));
                }
                if (answer == ExpirableScripts.LEASED) {
                    return true;
                }
                nextLookMillis = answer > 0 ? answer : SyncWait.RECHECK_MILLIS;
                return false;
            });
        }

        private CompletableFuture<Long> giveBack() {
            return Futures.sent(() -> ExpirableScripts.release(topology, name, id));
        }
    }
}
