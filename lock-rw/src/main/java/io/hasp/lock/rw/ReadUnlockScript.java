package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.pubsub.ChannelKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code read_unlock.lua}: give back one read hold; a re-sent request answers the first outcome. */
final class ReadUnlockScript {

    static final Script SCRIPT = Script.fromResource(ReadUnlockScript.class, "read_unlock.lua");

    /** The owner still has read holds. */
    static final long STILL_HELD = 0L;
    /** The owner's last read hold ended; others (or its own write hold) still hold the lock. */
    static final long ENDED = 1L;
    /** The owner's last read hold ended and the lock was freed (its waiters told). */
    static final long FREED = 2L;

    private ReadUnlockScript() {
    }

    /**
     * Releases the newest read hold of {@code ownerField} on lock {@code name}; with
     * {@code expectedCount > 0} only when the owner has exactly that many holds.
     *
     * @return a future of {@code null} (not held), {@link #STILL_HELD}, {@link #ENDED} or {@link #FREED}
     */
    static CompletableFuture<Long> run(RedisCommands redis, String name, String ownerField, String latch,
            long latchMillis, int expectedCount) {
        List<String> keys = List.of(name, RwKeys.channel(name), RwKeys.timeoutPrefix(name, ownerField),
                RwKeys.tag(name), latch);
        return redis.evalsha(SCRIPT, Replies.NULL_OR_LONG, keys,
                RwKeys.UNLOCK_MESSAGE, ownerField, latchMillis, Integer.toString(expectedCount),
                ChannelKind.of(redis).publishCommand());
    }
}
