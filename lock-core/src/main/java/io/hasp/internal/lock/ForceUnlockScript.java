package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code force_unlock.lua}: free a lock whoever holds it. */
final class ForceUnlockScript {

    static final Script SCRIPT = Script.fromResource(ForceUnlockScript.class, "force_unlock.lua");

    private ForceUnlockScript() {
    }

    /** Deletes lock {@code name}; the future is {@code true} when there was a lock to free. */
    static CompletableFuture<Boolean> run(Topology topology, String name) {
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, List.of(name, LockKeys.channel(name)),
                LockKeys.UNLOCK_MESSAGE, topology.channelKind().publishCommand());
    }
}
