package io.hasp.internal.sync;

import io.hasp.HaspListener;
import io.hasp.internal.Futures;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the client's {@link HaspListener} of synchronizer waits as of lock acquisitions: a wait begins
 * ({@code acquireStarted}) and ends with what it waited for ({@code acquired}: permits taken, a latch open) or without
 * ({@code acquireFailed}: its time ran out, or it failed or was cancelled). The kinds are {@code semaphore},
 * {@code expirable-semaphore} and {@code latch}. A listener that throws is logged and changes nothing.
 */
final class SyncEvents {

    private static final Logger log = LoggerFactory.getLogger(SyncEvents.class);

    private SyncEvents() {
    }

    /** Tells {@code listener} (unless null) that a wait of {@code kind} {@code name} began, and how it ends. */
    static void follow(HaspListener listener, String kind, String name, CompletableFuture<Boolean> result) {
        if (listener == null) {
            return;
        }
        long startNanos = System.nanoTime();
        Object started;
        try {
            started = listener.acquireStarted(kind, name);
        } catch (RuntimeException e) {
            log.warn("the listener failed: {}", e.toString());
            started = null;
        }
        Object span = started;
        result.whenComplete((done, error) -> {
            long waited = System.nanoTime() - startNanos;
            try {
                if (error == null && Boolean.TRUE.equals(done)) {
                    listener.acquired(kind, name, waited, span);
                } else {
                    listener.acquireFailed(kind, name, waited, error == null ? null : Futures.unwrap(error), span);
                }
            } catch (RuntimeException e) {
                log.warn("the listener failed: {}", e.toString());
            }
        });
    }
}
