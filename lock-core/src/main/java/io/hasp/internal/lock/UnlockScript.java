package io.hasp.internal.lock;

import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code unlock.lua}: give back one hold; a re-sent request answers the first outcome. */
final class UnlockScript {

    static final Script SCRIPT = Script.fromResource(UnlockScript.class, "unlock.lua");

    /**
     * The script's answers: nil not held, 0 still held, 1 freed (its unlock message published), 2 handed
     * over to the successor named in the call.
     */
    static final Reply<ReleaseOutcome> REPLY = ReleaseOutcome.reply("UNLOCK_OUTCOME", ReleaseOutcome.FREED,
            ReleaseOutcome.HANDED_OVER);

    private UnlockScript() {
    }

    /**
     * Releases one hold of {@code owner} on lock {@code name}, recording the outcome in {@code latch}
     * (a key under the kind's {@link LockKind#unlockLatchPrefix}, made by {@code LockContext.unlockLatch}).
     *
     * @return a future of {@link ReleaseOutcome#NOT_HELD}, {@link ReleaseOutcome#STILL_HELD} or
     *     {@link ReleaseOutcome#FREED}
     */
    static CompletableFuture<ReleaseOutcome> run(Topology topology, String name, String owner, String latch,
            long leaseMillis, long latchMillis) {
        List<String> keys = List.of(name, LockKeys.channel(name), latch);
        return topology.commands().evalsha(SCRIPT, REPLY, keys,
                LockKeys.UNLOCK_MESSAGE, Boxes.of(leaseMillis), owner, Boxes.of(latchMillis),
                topology.channelKind().publishCommand());
    }

    /**
     * Releases one hold of {@code owner} on lock {@code name}; when that was the owner's last hold,
     * the lock goes straight to {@code successor} (one hold, lease {@code successorLeaseMillis})
     * instead of being freed, and nothing is published.
     *
     * @return a future of {@link ReleaseOutcome#NOT_HELD}, {@link ReleaseOutcome#STILL_HELD} or
     *     {@link ReleaseOutcome#HANDED_OVER}
     */
    static CompletableFuture<ReleaseOutcome> runHandingOver(Topology topology, String name, String owner, String latch,
            long leaseMillis, long latchMillis, String successor, long successorLeaseMillis) {
        List<String> keys = List.of(name, LockKeys.channel(name), latch);
        return topology.commands().evalsha(SCRIPT, REPLY, keys,
                LockKeys.UNLOCK_MESSAGE, Boxes.of(leaseMillis), owner, Boxes.of(latchMillis),
                topology.channelKind().publishCommand(), successor, Boxes.of(successorLeaseMillis));
    }
}
