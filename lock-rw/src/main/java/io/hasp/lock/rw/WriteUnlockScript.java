package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.pubsub.ChannelKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code write_unlock.lua}: give back one write hold; a re-sent request answers the first outcome. */
final class WriteUnlockScript {

    static final Script SCRIPT = Script.fromResource(WriteUnlockScript.class, "write_unlock.lua");

    /** The owner still holds the write lock. */
    static final long STILL_HELD = 0L;
    /** The write hold ended; the lock stays in read mode for the owner's read holds (a downgrade). */
    static final long ENDED = 1L;
    /** The write hold ended and the lock was freed. */
    static final long FREED = 2L;

    private WriteUnlockScript() {
    }

    /**
     * Releases one write hold of {@code ownerField} on lock {@code name}; with
     * {@code expectedCount > 0} only when the owner has exactly that many write holds.
     *
     * @return a future of {@code null} (not held), {@link #STILL_HELD}, {@link #ENDED} or
     *     {@link #FREED} (all waiters are told in the last two cases)
     */
    static CompletableFuture<Long> run(RedisCommands redis, String name, String ownerField, String latch,
            long latchMillis, int expectedCount) {
        List<String> keys = List.of(name, RwKeys.channel(name), RwKeys.tag(name), latch);
        return redis.evalsha(SCRIPT, Replies.NULL_OR_LONG, keys,
                RwKeys.READ_UNLOCK_MESSAGE, RwKeys.writeField(ownerField), latchMillis, Integer.toString(expectedCount),
                ChannelKind.of(redis).publishCommand());
    }
}
