package io.hasp.lock.rw;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code force_unlock.lua}: free a lock held in one mode, whoever holds it. */
final class RwForceUnlockScript {

    static final Script SCRIPT = Script.fromResource(RwForceUnlockScript.class, "force_unlock.lua");

    private RwForceUnlockScript() {
    }

    /** Deletes lock {@code name} if it is held in {@code mode}; the future is {@code true} when it was. */
    static CompletableFuture<Boolean> run(Topology topology, String name, LockMode mode) {
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, List.of(name, RwKeys.channel(name), RwKeys.tag(name)),
                mode == LockMode.READ ? "read" : "write", RwKeys.READ_UNLOCK_MESSAGE, topology.channelKind().publishCommand());
    }
}
