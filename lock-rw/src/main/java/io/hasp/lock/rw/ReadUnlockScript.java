package io.hasp.lock.rw;

import io.hasp.client.RedisCommands;
import io.hasp.client.Replies;
import io.hasp.client.script.Script;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code read_unlock.lua}: give back one read hold; a re-sent request answers the first outcome. */
final class ReadUnlockScript {

    static final Script SCRIPT = Script.fromResource(ReadUnlockScript.class, "read_unlock.lua");

    private ReadUnlockScript() {
    }

    /**
     * Releases the newest read hold of {@code ownerField} on lock {@code name}; with
     * {@code expectedCount > 0} only when the owner has exactly that many holds.
     *
     * @return a future of {@code null} (not held), {@code 0} (the lock is still held) or {@code 1}
     *     (the lock was freed and its waiters told)
     */
    static CompletableFuture<Long> run(RedisCommands redis, String name, String ownerField, String requestId,
            long latchMillis, int expectedCount) {
        List<String> keys = List.of(name, RwKeys.channel(name), RwKeys.timeoutPrefix(name, ownerField),
                RwKeys.tag(name), RwKeys.unlockLatch(name, requestId));
        return redis.evalsha(SCRIPT, Replies.NULL_OR_LONG, keys,
                RwKeys.UNLOCK_MESSAGE, ownerField, latchMillis, Integer.toString(expectedCount));
    }
}
