package io.hasp.lock.rw;

import io.hasp.client.RedisCommands;
import io.hasp.client.Replies;
import io.hasp.client.script.Script;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code write_unlock.lua}: give back one write hold; a re-sent request answers the first outcome. */
final class WriteUnlockScript {

    static final Script SCRIPT = Script.fromResource(WriteUnlockScript.class, "write_unlock.lua");

    private WriteUnlockScript() {
    }

    /**
     * Releases one write hold of {@code ownerField} on lock {@code name}; with
     * {@code expectedCount > 0} only when the owner has exactly that many write holds.
     *
     * @return a future of {@code null} (not held), {@code 0} (still write-held by the owner) or
     *     {@code 1} (the write hold ended: the lock was freed or left to the owner's read holds,
     *     and all waiters were told)
     */
    static CompletableFuture<Long> run(RedisCommands redis, String name, String ownerField, String requestId,
            long latchMillis, int expectedCount) {
        List<String> keys = List.of(name, RwKeys.channel(name), RwKeys.tag(name), RwKeys.unlockLatch(name, requestId));
        return redis.evalsha(SCRIPT, Replies.NULL_OR_LONG, keys,
                RwKeys.READ_UNLOCK_MESSAGE, RwKeys.writeField(ownerField), latchMillis, Integer.toString(expectedCount));
    }
}
