package io.hasp.lock.rw;

import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.lock.ReleaseOutcome;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code write_unlock.lua}: give back one write hold; a re-sent request answers the first outcome. */
final class WriteUnlockScript {

    static final Script SCRIPT = Script.fromResource(WriteUnlockScript.class, "write_unlock.lua");

    /**
     * The script's answers: nil not held, 0 still held, 1 the write hold ended and the owner's read
     * holds keep the lock in read mode (a downgrade), 2 the lock was freed.
     */
    static final Reply<ReleaseOutcome> REPLY = ReleaseOutcome.reply("WRITE_UNLOCK_OUTCOME",
            ReleaseOutcome.ENDED, ReleaseOutcome.FREED);

    private WriteUnlockScript() {
    }

    /**
     * Releases one write hold of {@code ownerField} on lock {@code name}; with
     * {@code expectedCount > 0} only when the owner has exactly that many write holds.
     *
     * @return a future of {@link ReleaseOutcome#NOT_HELD}, {@link ReleaseOutcome#STILL_HELD},
     *     {@link ReleaseOutcome#ENDED} or {@link ReleaseOutcome#FREED} (all waiters are told in the last two cases)
     */
    static CompletableFuture<ReleaseOutcome> run(Topology topology, String name, String ownerField, String latch,
            long latchMillis, int expectedCount) {
        List<String> keys = List.of(name, RwKeys.channel(name), RwKeys.tag(name), latch);
        return topology.commands().evalsha(SCRIPT, REPLY, keys,
                RwKeys.READ_UNLOCK_MESSAGE, RwKeys.writeField(ownerField), latchMillis, Integer.toString(expectedCount),
                topology.channelKind().publishCommand());
    }
}
