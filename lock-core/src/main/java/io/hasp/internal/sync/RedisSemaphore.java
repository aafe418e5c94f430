package io.hasp.internal.sync;

import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.hasp.sync.HaspSemaphore;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@link HaspSemaphore} of one name on one client: scripts on the client's topology ({@link SemaphoreScripts}),
 * waiting through the client's {@link PermitWaiters}. A cheap view; thread-safe.
 */
public final class RedisSemaphore extends CountedPermits implements HaspSemaphore {

    /**
     * The semaphore {@code name} of a client.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public RedisSemaphore(Topology topology, PermitWaiters waiters, Timer timer, String name) {
        super(topology, waiters, timer, name, "a blocking HaspSemaphore call");
    }

    private static int atLeastOne(int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits: " + permits + " (expected: at least 1)");
        }
        return permits;
    }

    private static <T> T awaitInterruptibly(CompletableFuture<T> future) throws InterruptedException {
        return SyncWait.awaitInterruptibly(future, "a blocking HaspSemaphore acquisition");
    }

    @Override
    public CompletableFuture<Integer> availablePermitsAsync() {
        return Futures.sent(() -> topology.commands().get(name)).thenApply(value -> value == null ? 0
                : clamped(Long.parseLong(value)));
    }

    @Override
    public int drainPermits() {
        return join(drainPermitsAsync());
    }

    @Override
    public CompletableFuture<Integer> drainPermitsAsync() {
        return Futures.sent(() -> SemaphoreScripts.drain(topology, name))
                .thenApply(CountedPermits::clamped);
    }

    @Override
    public void acquire() throws InterruptedException {
        acquire(1);
    }

    @Override
    public void acquire(int permits) throws InterruptedException {
        awaitInterruptibly(acquisition(atLeastOne(permits), -1));
    }

    @Override
    public boolean tryAcquire() {
        return tryAcquire(1);
    }

    @Override
    public boolean tryAcquire(int permits) {
        return join(tryAcquireAsync(permits));
    }

    @Override
    public boolean tryAcquire(Duration waitTime) throws InterruptedException {
        return tryAcquire(1, waitTime);
    }

    @Override
    public boolean tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException {
        return tryAcquire(1, waitTime, unit);
    }

    @Override
    public boolean tryAcquire(int permits, Duration waitTime) throws InterruptedException {
        return awaitInterruptibly(tryAcquireAsync(permits, waitTime));
    }

    @Override
    public boolean tryAcquire(int permits, long waitTime, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return tryAcquire(permits, Duration.ofNanos(unit.toNanos(waitTime)));
    }

    @Override
    public void release() {
        release(1);
    }

    @Override
    public void release(int permits) {
        join(releaseAsync(permits));
    }

    @Override
    public CompletableFuture<Void> acquireAsync(int permits) {
        return waitFor(atLeastOne(permits), -1).startForNothing();
    }

    @Override
    public CompletableFuture<Boolean> tryAcquireAsync(int permits) {
        return acquisition(atLeastOne(permits), 0);
    }

    @Override
    public CompletableFuture<Boolean> tryAcquireAsync(int permits, Duration waitTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        return acquisition(atLeastOne(permits), Math.max(0, waitTime.toNanos()));
    }

    @Override
    public CompletableFuture<Void> releaseAsync(int permits) {
        atLeastOne(permits);
        return Futures.sent(() -> SemaphoreScripts.release(topology, name, permits)).thenApply(free -> null);
    }

    private CompletableFuture<Boolean> acquisition(int permits, long waitNanos) {
        return waitFor(permits, waitNanos).start();
    }

    private SyncWait waitFor(int permits, long waitNanos) {
        WakeLine line = waitNanos == 0 ? null : wakeLine();
        long placeMillis = line == null ? 0 : SemaphoreScripts.PLACE_MILLIS;
        String process = line == null ? "" : waiters.process();
        return new SyncWait(waiters, timer, SemaphoreScripts.channel(name), false,
                () -> SemaphoreScripts.acquire(topology, name, permits, process, placeMillis),
                () -> SemaphoreScripts.release(topology, name, permits), "semaphore", name, waitNanos)
                .needing(permits).inLine(line);
    }

    @Override
    public String toString() {
        return "semaphore " + name;
    }
}
