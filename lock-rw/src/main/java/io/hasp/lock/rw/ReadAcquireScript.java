package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.Script;
import io.hasp.internal.lock.AcquireOutcome;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code read_acquire.lua}: take or re-enter a read hold, idempotently per target count. */
final class ReadAcquireScript {

    static final Script SCRIPT = Script.fromResource(ReadAcquireScript.class, "read_acquire.lua");

    private ReadAcquireScript() {
    }

    /**
     * Tries to bring {@code ownerField}'s read holds on lock {@code name} to {@code targetCount}, the
     * newest with a timeout key of {@code leaseMillis}.
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the read lock
     *     afterwards, else busy with the lock's remaining time to live in milliseconds (-1: no expiry)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String name, String ownerField, long leaseMillis,
            int targetCount) {
        return redis.evalsha(SCRIPT, AcquireOutcome.REPLY, List.of(name, RwKeys.timeoutPrefix(name, ownerField)),
                leaseMillis, ownerField, RwKeys.writeField(ownerField), (long) targetCount);
    }
}
