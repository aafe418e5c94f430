package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.netty.util.Timer;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the unlock latches of unlocks confirmed on their one send in batches: one {@code DEL} of up
 * to {@link #BATCH} keys every {@link #DELAY_MILLIS} ms at most instead of one command per unlock. The delay
 * is what makes the batches: a process that releases a hot lock once per hand-off between processes (every few
 * milliseconds) would otherwise send a {@code DEL} of one key per release, a command whose round trip costs the
 * server more than the release's own script. A latch answers another
 * send of the same unlock request; once a request sent only once is confirmed nothing reads its latch
 * again, so deleting it a tick later changes nothing but the server's memory for that tick. The latch
 * of a request sent more than once is not given here ({@code Unlock}): its earlier send may still be on
 * its way on another connection. A latch this sweeper never deletes (a failed {@code DEL}, a closed
 * client) expires on its own after the unlock's latch time.
 *
 * <p>Batched keys lie in different hash slots: like the watchdog's batched renewal, this assumes a
 * standalone server (or a proxy that splits multi-key commands). Thread-safe.
 */
final class LatchSweeper {

    private static final Logger log = LoggerFactory.getLogger(LatchSweeper.class);

    /** Most latches deleted by one command. */
    static final int BATCH = 512;
    /** How long a latch waits for others to share its deletion: latches outlive their unlock by about this. */
    static final long DELAY_MILLIS = 1_000;

    private final RedisCommands redis;
    private final Timer timer;
    private ArrayList<String> pending = new ArrayList<>();  // guarded by this
    private ArrayList<String> spare = new ArrayList<>();    // guarded by this; the list swept last time
    private boolean scheduled;                              // guarded by this
    private boolean closed;                                 // guarded by this

    LatchSweeper(RedisCommands redis, Timer timer) {
        this.redis = redis;
        this.timer = timer;
    }

    /** Deletes {@code latch} with the next batch, within about {@link #DELAY_MILLIS} ms and a timer tick. */
    void forget(String latch) {
        synchronized (this) {
            if (closed) {
                return;  // it expires on its own
            }
            pending.add(latch);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        try {
            timer.newTimeout(t -> sweep(), DELAY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RuntimeException timerStopped) {
            synchronized (this) {
                scheduled = false;
                pending.clear();  // they expire on their own
            }
        }
    }

    private void sweep() {
        ArrayList<String> batch;
        synchronized (this) {
            scheduled = false;
            batch = pending;
            pending = spare;
            spare = batch;
        }
        // Only this timer task (or close) reads the swept list; forget() has moved on to the other one.
        for (int from = 0; from < batch.size(); from += BATCH) {
            int to = Math.min(batch.size(), from + BATCH);
            send(batch.subList(from, to).toArray(new String[0]));
        }
        batch.clear();
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
        synchronized (this) {
            closed = true;
        }
        sweep();
    }
}
