package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Script;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code fenced_acquire.lua}: take or re-enter a lock and issue its fencing token, idempotently. */
final class FencedAcquireScript {

    static final Script SCRIPT = Turns.compose("fenced_acquire.lua");

    private static final Long PLACE_MILLIS = Turns.PLACE_MILLIS;

    private FencedAcquireScript() {
    }

    /**
     * Tries to bring {@code owner}'s hold on lock {@code key} to {@code targetCount} for process {@code process},
     * taking the next token when it does; when the lock is taken and the caller {@code waits}, the process takes a
     * place in the lock's line.
     *
     * @return a future of {@link AcquireOutcome#acquired(long)} with the token when the owner holds
     *     the lock afterwards, of {@link AcquireOutcome#LOST}, or busy with how long to park (in line or not)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String key, String owner, long leaseMillis,
            int targetCount, String process, boolean waits) {
        List<String> inLine = LockKeys.inLineWithGrants(key);
        return redis.evalsha(SCRIPT, AcquireOutcome.FENCED_REPLY,
                List.of(key, LockKeys.tokenCounter(key), inLine.get(1), inLine.get(2), inLine.get(3), inLine.get(4)),
                Boxes.of(leaseMillis), owner, (long) targetCount, process, waits ? PLACE_MILLIS : "0");
    }
}
