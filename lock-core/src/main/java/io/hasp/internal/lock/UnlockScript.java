package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.pubsub.ChannelKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code unlock.lua}: give back one hold; a re-sent request answers the first outcome. */
final class UnlockScript {

    static final Script SCRIPT = Script.fromResource(UnlockScript.class, "unlock.lua");

    /** The owner does not hold the lock. */
    static final Long NOT_HELD = null;
    /** The owner still holds the lock with one hold fewer. */
    static final long STILL_HELD = 0L;
    /** The lock was freed and its unlock message published. */
    static final long RELEASED = 1L;
    /** The owner's last hold ended and the lock went straight to the successor named in the call. */
    static final long HANDED_OVER = 2L;

    private UnlockScript() {
    }

    /**
     * Releases one hold of {@code owner} on lock {@code name}, recording the outcome in {@code latch}
     * ({@link LockKeys#unlockLatch}).
     *
     * @return a future of {@code null} (not held), {@code 0} (still held) or {@code 1} (freed)
     */
    static CompletableFuture<Long> run(RedisCommands redis, String name, String owner, String latch,
            long leaseMillis, long latchMillis) {
        List<String> keys = List.of(name, LockKeys.channel(name), latch);
        return redis.evalsha(SCRIPT, Replies.NULL_OR_LONG, keys,
                LockKeys.UNLOCK_MESSAGE, Boxes.of(leaseMillis), owner, Boxes.of(latchMillis),
                ChannelKind.of(redis).publishCommand());
    }

    /**
     * Releases one hold of {@code owner} on lock {@code name}; when that was the owner's last hold,
     * the lock goes straight to {@code successor} (one hold, lease {@code successorLeaseMillis})
     * instead of being freed, and nothing is published.
     *
     * @return a future of {@code null} (not held), {@code 0} (still held) or {@code 2} (handed over)
     */
    static CompletableFuture<Long> runHandingOver(RedisCommands redis, String name, String owner, String latch,
            long leaseMillis, long latchMillis, String successor, long successorLeaseMillis) {
        List<String> keys = List.of(name, LockKeys.channel(name), latch);
        return redis.evalsha(SCRIPT, Replies.NULL_OR_LONG, keys,
                LockKeys.UNLOCK_MESSAGE, Boxes.of(leaseMillis), owner, Boxes.of(latchMillis),
                ChannelKind.of(redis).publishCommand(), successor, Boxes.of(successorLeaseMillis));
    }
}
