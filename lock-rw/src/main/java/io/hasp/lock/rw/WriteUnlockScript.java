package io.hasp.lock.rw;

import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.lock.ReleaseOutcome;
import io.hasp.internal.lock.Turns;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code write_unlock.lua}: give back one write hold; a re-sent request answers the first outcome. */
final class WriteUnlockScript {

    static final Script SCRIPT = Turns.compose(WriteUnlockScript.class, "write_unlock.lua");

    /**
     * The script's answers: nil not held, 0 still held, 1 the write hold ended and the owner's read
     * holds keep the lock in read mode (a downgrade), 2 the lock was freed with nobody in the writers' line, 3, 4 or 5 it was freed and the turn given
     * ({@link ReleaseOutcome#replyInLine}).
     */
    static final Reply<ReleaseOutcome> REPLY = ReleaseOutcome.replyInLine("WRITE_UNLOCK_OUTCOME",
            ReleaseOutcome.ENDED, ReleaseOutcome.FREED);

    private WriteUnlockScript() {
    }

    /**
     * Releases one write hold of {@code ownerField} on lock {@code name}; with
     * {@code expectedCount > 0} only when the owner has exactly that many write holds. When the lock is freed, the turn goes to
     * the first process in the writers' line, and {@code releasing} keeps its place as it asked.
     *
     * @return a future of {@link ReleaseOutcome#NOT_HELD}, {@link ReleaseOutcome#STILL_HELD},
     *     {@link ReleaseOutcome#ENDED}, or
     *     {@link ReleaseOutcome#FREED} or one of the outcomes that gave the turn ({@link ReleaseOutcome#turnGiven()})
     */
    static CompletableFuture<ReleaseOutcome> run(Topology topology, String name, String ownerField, String latch,
            long latchMillis, int expectedCount, ReleasingProcess releasing) {
        List<String> keys = List.of(name, RwKeys.channel(name), RwKeys.tag(name), latch);
        return topology.commands().evalsha(SCRIPT, REPLY, ReleasingProcess.withLine(keys, name), releasing.withArgs(name,
                RwKeys.READ_UNLOCK_MESSAGE, RwKeys.writeField(ownerField), latchMillis, Integer.toString(expectedCount),
                topology.channelKind().publishCommand()));
    }
}
