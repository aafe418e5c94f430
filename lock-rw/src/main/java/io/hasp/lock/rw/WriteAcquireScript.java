package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.Script;
import io.hasp.internal.lock.AcquireOutcome;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code write_acquire.lua}: take or re-enter a write hold, idempotently per target count. */
final class WriteAcquireScript {

    static final Script SCRIPT = Script.fromResource(WriteAcquireScript.class, "write_acquire.lua");

    /** The script's answer when the owner asks for the write lock while it holds the read lock. */
    static final long UPGRADE = -3L;

    private WriteAcquireScript() {
    }

    /**
     * Tries to bring {@code ownerField}'s write holds on lock {@code name} to {@code targetCount}.
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the write lock
     *     afterwards, busy with {@link #UPGRADE} when it holds a read hold of a read-mode lock, else
     *     busy with the lock's remaining time to live in milliseconds (-1: no expiry)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String name, String ownerField, long leaseMillis,
            int targetCount) {
        return redis.evalsha(SCRIPT, AcquireOutcome.REPLY, List.of(name, RwKeys.timeoutPrefix(name, ownerField)),
                leaseMillis, RwKeys.writeField(ownerField), ownerField, (long) targetCount);
    }
}
