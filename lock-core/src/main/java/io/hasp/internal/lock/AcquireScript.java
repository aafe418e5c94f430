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
     * when the lock is taken and the caller {@code waits}, the process takes a place in the lock's line, and with a
     * {@code stamp} above 0 the caller becomes its process's heir: a release may grant it the lock (see
     * {@code turns.lua}), telling the process a {@link Grant} on its turn channel.
     *
     * @param stamp a number unique in this client that tells this naming of the heir from others, or 0 to name none
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the lock afterwards, of
     *     {@link AcquireOutcome#LOST}, or busy with how long to park ({@link AcquireOutcome#inLine()} when the
     *     process's turn comes on its turn channel)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String key, String owner, long leaseMillis,
            int targetCount, String process, boolean waits, long stamp) {
        String heir = waits && stamp > 0 ? Grant.heir(stamp, leaseMillis, owner) : "";
        return redis.evalsha(SCRIPT, AcquireOutcome.IN_LINE_REPLY, LockKeys.inLineWithGrants(key),
                Boxes.of(leaseMillis), owner, (long) targetCount, process, waits ? PLACE_MILLIS : "0", heir);
    }
}
