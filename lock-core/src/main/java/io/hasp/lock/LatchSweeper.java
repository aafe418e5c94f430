package io.hasp.lock;

import io.hasp.client.RedisCommands;
import io.netty.util.Timer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the unlock latches of confirmed unlocks in batches: one {@code DEL} of up to
 * {@link #BATCH} keys per timer tick instead of one command per unlock. A latch only answers a
 * re-sent unlock; once its unlock is confirmed nothing reads it again, so deleting it a tick later
 * changes nothing but the server's memory for that tick, and a latch this sweeper never deletes
 * (a failed {@code DEL}, a closed client) still expires on its own after the unlock's latch time.
 *
 * <p>Batched keys lie in different hash slots: like the watchdog's batched renewal, this assumes a
 * standalone server (or a proxy that splits multi-key commands). Thread-safe.
 */
final class LatchSweeper {

    private static final Logger log = LoggerFactory.getLogger(LatchSweeper.class);

    /** Most latches deleted by one command. */
    static final int BATCH = 512;

    private final RedisCommands redis;
    private final Timer timer;
    private final ConcurrentLinkedQueue<String> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean closed;

    LatchSweeper(RedisCommands redis, Timer timer) {
        this.redis = redis;
        this.timer = timer;
    }

    /** Deletes {@code latch} with the next batch, within about one timer tick. */
    void forget(String latch) {
        if (closed) {
            return;  // it expires on its own
        }
        pending.add(latch);
        if (scheduled.compareAndSet(false, true)) {
            try {
                timer.newTimeout(t -> sweep(), 1, TimeUnit.MILLISECONDS);
            } catch (RuntimeException timerStopped) {
                scheduled.set(false);
                pending.clear();
            }
        }
    }

    private void sweep() {
        scheduled.set(false);
        while (!pending.isEmpty()) {
            String[] batch = new String[Math.min(BATCH, pending.size())];
            int n = 0;
            for (String latch; n < batch.length && (latch = pending.poll()) != null; ) {
                batch[n++] = latch;
            }
            if (n == 0) {
                return;
            }
            if (n < batch.length) {
                batch = Arrays.copyOf(batch, n);
            }
            send(batch);
        }
    }

    private void send(String[] latches) {
        try {
            redis.del(latches).exceptionally(e -> {
                log.debug("could not delete {} unlock latches (they expire on their own): {}", latches.length,
                        e.toString());
                return null;
            });
        } catch (RuntimeException e) {
            log.debug("could not delete {} unlock latches (they expire on their own): {}", latches.length, e.toString());
        }
    }

    /** Sends the pending latches' deletion now and stops batching; later latches expire on their own. */
    void close() {
        closed = true;
        sweep();
    }

    /** Latches waiting for the next batch, for tests and diagnostics. */
    int pending() {
        return pending.size();
    }
}
