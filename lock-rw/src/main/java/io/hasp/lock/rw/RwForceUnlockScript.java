package io.hasp.lock.rw;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.lock.Turns;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code force_unlock.lua}: free a lock held in one mode, whoever holds it, and give the turn. */
final class RwForceUnlockScript {

    static final Script SCRIPT = Turns.compose(RwForceUnlockScript.class, "force_unlock.lua");

    private RwForceUnlockScript() {
    }

    /**
     * Deletes lock {@code name} if it is held in {@code mode}, and gives the turn to the first process in the
     * writers' line; the future is {@code true} when it was held.
     */
    static CompletableFuture<Boolean> run(Topology topology, String name, LockMode mode) {
        List<String> keys = ReleasingProcess.withLine(List.of(name, RwKeys.channel(name), RwKeys.tag(name)), name);
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, keys, mode == LockMode.READ ? "read" : "write",
                RwKeys.READ_UNLOCK_MESSAGE, topology.channelKind().publishCommand(), Turns.TURN_MILLIS,
                RwKeys.turnChannelPrefix(name));
    }
}
