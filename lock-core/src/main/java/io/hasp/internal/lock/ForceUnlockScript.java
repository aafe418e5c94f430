package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code force_unlock.lua}: free a lock whoever holds it. */
final class ForceUnlockScript {

    static final Script SCRIPT = Turns.compose("force_unlock.lua");

    private ForceUnlockScript() {
    }

    /** Deletes lock {@code name}; the future is {@code true} when there was a lock to free. */
    static CompletableFuture<Boolean> run(Topology topology, String name) {
        List<String> inLine = LockKeys.inLine(name);
        List<String> keys = List.of(name, LockKeys.channel(name), inLine.get(1), inLine.get(2), inLine.get(3));
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, keys,
                LockKeys.UNLOCK_MESSAGE, topology.channelKind().publishCommand(), Boxes.of(Turns.TURN_MILLIS),
                LockKeys.turnChannelPrefix(name));
    }
}
