package io.hasp.internal.sync;

import io.hasp.internal.Futures;
import io.hasp.internal.topology.Topology;
import io.netty.util.Timer;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both semaphores have: free permits counted at the semaphore's name, set once and added to by the plain
 * semaphore's scripts ({@link SemaphoreScripts}), which announce them on {@code redisson_sc:{<name>}}; and their
 * blocking calls, which wait for the async ones.
 */
abstract class CountedPermits extends Synchronizer {

    private static final Logger log = LoggerFactory.getLogger(CountedPermits.class);

    /** What this semaphore's blocking calls are, in the message that refuses one on a hasp client thread. */
    private final String blockingCall;
    /** This client's place in the semaphore's line, once a wait asked for it. */
    private WakeLine line;

    CountedPermits(Topology topology, PermitWaiters waiters, Timer timer, String name, String blockingCall) {
        super(topology, waiters, timer, name, "semaphore");
        this.blockingCall = blockingCall;
    }

    /** Waits for {@code future}: a blocking call's answer. */
    final <T> T join(CompletableFuture<T> future) {
        return Futures.join(future, blockingCall);
    }

    public boolean trySetPermits(int permits) {
        return join(trySetPermitsAsync(permits));
    }

    public CompletableFuture<Boolean> trySetPermitsAsync(int permits) {
        if (permits < 0) {
            throw new IllegalArgumentException("permits: " + permits + " (expected: at least 0)");
        }
        return Futures.sent(() -> SemaphoreScripts.trySet(topology, name, permits));
    }

    public void addPermits(int permits) {
        join(addPermitsAsync(permits));
    }

    public CompletableFuture<Void> addPermitsAsync(int permits) {
        return Futures.sent(() -> SemaphoreScripts.release(topology, name, permits)).thenApply(free -> null);
    }

    public int availablePermits() {
        return join(availablePermitsAsync());
    }

    /** The permits free now. */
    public abstract CompletableFuture<Integer> availablePermitsAsync();

    /**
     * This client's place in the semaphore's line, for a wait that may wait; null where this client's waiters take no
     * place in line (see {@link PermitWaiters#process}).
     */
    final WakeLine wakeLine() {
        String process = waiters.process();
        if (process.isEmpty()) {
            return null;
        }
        WakeLine known = line;
        if (known == null) {
            known = newLine(process);
            line = known;   // racy on purpose: an immutable value, built again at worst
        }
        return known;
    }

    private WakeLine newLine(String process) {
        return new WakeLine(SemaphoreScripts.wakeChannel(name, process),
                hops -> Futures.sent(() -> SemaphoreScripts.pass(topology, name, process, hops))
                        .whenComplete((passed, error) -> {
                            if (error != null) {   // the waiters in line look again within their re-check
                                log.debug("semaphore {}: passing a wake on failed: {}", name, error.toString());
                            }
                        }));
    }

    /** {@code count} as an {@code int}, clamped. */
    static int clamped(long count) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, count));
    }
}
