package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Script;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code acquire.lua}: take or re-enter a lock, idempotently per target count. */
final class AcquireScript {

    static final Script SCRIPT = Script.fromResource(AcquireScript.class, "acquire.lua");

    private AcquireScript() {
    }

    /**
     * Tries to bring {@code owner}'s hold on lock {@code key} to {@code targetCount}.
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the lock afterwards,
     *     else busy with the holder's remaining time to live in milliseconds (-1: no expiry)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String key, String owner, long leaseMillis,
            int targetCount) {
        return redis.evalsha(SCRIPT, AcquireOutcome.REPLY, LockKeys.hashOnly(key),
                Boxes.of(leaseMillis), owner, (long) targetCount);
    }
}
