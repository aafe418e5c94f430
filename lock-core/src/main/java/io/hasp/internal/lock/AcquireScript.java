package io.hasp.internal.lock;

import io.hasp.RedisCommands;
import io.hasp.Script;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code acquire.lua}: take or re-enter a lock, idempotently per target count, or wait in line. */
final class AcquireScript {

    static final Script SCRIPT = Turns.compose("acquire.lua");

    private static final Long PLACE_MILLIS = Turns.PLACE_MILLIS;

    private AcquireScript() {
    }

    /**
     * Tries to bring {@code owner}'s hold on lock {@code key} to {@code targetCount} for process {@code process};
     * when the lock is taken and the caller {@code waits}, the process takes a place in the lock's line.
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the lock afterwards, of
     *     {@link AcquireOutcome#LOST}, or busy with how long to park ({@link AcquireOutcome#inLine()} when the
     *     process's turn comes on its turn channel)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String key, String owner, long leaseMillis,
            int targetCount, String process, boolean waits) {
        return redis.evalsha(SCRIPT, AcquireOutcome.IN_LINE_REPLY, LockKeys.inLine(key),
                Boxes.of(leaseMillis), owner, (long) targetCount, process, waits ? PLACE_MILLIS : "0");
    }
}
