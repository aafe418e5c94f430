package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Script;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code fenced_acquire.lua}: take or re-enter a lock and issue its fencing token, idempotently. */
final class FencedAcquireScript {

    static final Script SCRIPT = Script.fromResource(FencedAcquireScript.class, "fenced_acquire.lua");

    private FencedAcquireScript() {
    }

    /**
     * Tries to bring {@code owner}'s hold on lock {@code key} to {@code targetCount}, taking the next
     * token when it does.
     *
     * @return a future of {@link AcquireOutcome#acquired(long)} with the token when the owner holds
     *     the lock afterwards, else busy with the holder's remaining time to live in milliseconds
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String key, String owner, long leaseMillis,
            int targetCount) {
        return redis.evalsha(SCRIPT, AcquireOutcome.FENCED_REPLY, List.of(key, LockKeys.tokenCounter(key)),
                Boxes.of(leaseMillis), owner, (long) targetCount);
    }
}
