package io.hasp.lock.rw;

import io.hasp.RedisCommands;
import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.lock.AcquireOutcome;
import io.hasp.internal.lock.Turns;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Typed call of {@code write_acquire.lua}: take or re-enter a write hold, idempotently per target count, or wait in
 * the lock's line of processes for a turn.
 */
final class WriteAcquireScript {

    static final Script SCRIPT = Turns.compose(WriteAcquireScript.class, "write_acquire.lua");

    /**
     * The answer when the owner asks for the write lock while it holds the read lock (compared by identity). Busy
     * with no expiry where it is not recognised (a reply replicas did not confirm): the waiter then looks again
     * after a second, never in a spin.
     */
    static final AcquireOutcome UPGRADE = AcquireOutcome.busy(-1);

    /** As {@link AcquireOutcome#IN_LINE_REPLY}, with the status {@code UPGRADE} for {@link #UPGRADE}. */
    static final Reply<AcquireOutcome> REPLY = new Reply<>("WRITE_ACQUIRE_OUTCOME") {
        @Override
        public AcquireOutcome integer(long value) {
            return AcquireOutcome.IN_LINE_REPLY.integer(value);
        }

        @Override
        public AcquireOutcome simpleString(ByteBuf content) {
            if ("UPGRADE".equals(content.toString(StandardCharsets.US_ASCII))) {
                return UPGRADE;
            }
            return AcquireOutcome.IN_LINE_REPLY.simpleString(content);
        }

        @Override
        public AcquireOutcome nullValue() {
            return AcquireOutcome.ACQUIRED;
        }
    };

    private static final Long PLACE_MILLIS = Turns.PLACE_MILLIS;

    private WriteAcquireScript() {
    }

    /**
     * Tries to bring {@code ownerField}'s write holds on lock {@code name} to {@code targetCount} for process
     * {@code process}; when the lock is taken and the caller {@code waits}, the process takes a place in the lock's
     * line (not when {@code process} is empty: a client whose processes take no turns).
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED} when the owner holds the write lock afterwards,
     *     {@link #UPGRADE} when it holds a read hold of a read-mode lock, {@link AcquireOutcome#LOST}, else busy
     *     with how long to park ({@link AcquireOutcome#inLine()} when the process's turn comes on its turn channel)
     */
    static CompletableFuture<AcquireOutcome> run(RedisCommands redis, String name, String ownerField, long leaseMillis,
            int targetCount, String process, boolean waits) {
        return redis.evalsha(SCRIPT, REPLY, RwKeys.writeKeys(name, ownerField), leaseMillis,
                RwKeys.writeField(ownerField), ownerField, (long) targetCount, process,
                waits && !process.isEmpty() ? PLACE_MILLIS : "0");
    }
}
