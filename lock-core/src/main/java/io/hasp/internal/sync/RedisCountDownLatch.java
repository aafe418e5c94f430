package io.hasp.internal.sync;

import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.hasp.sync.HaspCountDownLatch;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@link HaspCountDownLatch} of one name on one client: scripts on the client's topology ({@link LatchScripts}),
 * waiting through the client's {@link PermitWaiters}. A cheap view; thread-safe.
 */
public final class RedisCountDownLatch extends Synchronizer implements HaspCountDownLatch {

    /**
     * The latch {@code name} of a client.
     *
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    public RedisCountDownLatch(Topology topology, PermitWaiters waiters, Timer timer, String name) {
        super(topology, waiters, timer, name, "latch");
    }

    private static <T> T join(CompletableFuture<T> future) {
        return Futures.join(future, "a blocking HaspCountDownLatch call");
    }

    @Override
    public boolean trySetCount(long count) {
        return join(trySetCountAsync(count));
    }

    @Override
    public CompletableFuture<Boolean> trySetCountAsync(long count) {
        if (count < 1) {
            throw new IllegalArgumentException("count: " + count + " (expected: at least 1)");
        }
        return Futures.sent(() -> LatchScripts.trySet(topology, name, count));
    }

    @Override
    public void countDown() {
        join(countDownAsync());
    }

    @Override
    public CompletableFuture<Void> countDownAsync() {
        return Futures.sent(() -> LatchScripts.countDown(topology, name)).thenApply(count -> null);
    }

    @Override
    public long getCount() {
        return join(getCountAsync());
    }

    @Override
    public CompletableFuture<Long> getCountAsync() {
        return Futures.sent(() -> topology.commands().get(name))
                .thenApply(value -> value == null ? 0L : Math.max(0L, Long.parseLong(value)));
    }

    @Override
    public void await() throws InterruptedException {
        SyncWait.awaitInterruptibly(awaitAsync(), "a blocking HaspCountDownLatch wait");
    }

    @Override
    public boolean await(Duration waitTime) throws InterruptedException {
        return SyncWait.awaitInterruptibly(awaitAsync(waitTime), "a blocking HaspCountDownLatch wait");
    }

    @Override
    public boolean await(long waitTime, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return await(Duration.ofNanos(unit.toNanos(waitTime)));
    }

    @Override
    public CompletableFuture<Void> awaitAsync() {
        return opening(-1).startForNothing();
    }

    @Override
    public CompletableFuture<Boolean> awaitAsync(Duration waitTime) {
        Objects.requireNonNull(waitTime, "waitTime");
        return opening(Math.max(0, waitTime.toNanos())).start();
    }

    @Override
    public boolean delete() {
        return join(deleteAsync());
    }

    @Override
    public CompletableFuture<Boolean> deleteAsync() {
        return Futures.sent(() -> LatchScripts.delete(topology, name));
    }

    /** A wait for the latch to open: every announcement (zero reached, a new count) makes each waiter look again. */
    private SyncWait opening(long waitNanos) {
        return new SyncWait(waiters, timer, LatchScripts.channel(name), true,
                () -> getCountAsync().thenApply(count -> count == 0), null, "latch", name, waitNanos);
    }

    @Override
    public String toString() {
        return "count-down latch " + name;
    }
}
