package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code rollback.lua}: undo an abandoned acquisition whose outcome was unknown. */
final class RollbackScript {

    static final Script SCRIPT = Turns.compose("rollback.lua");

    private RollbackScript() {
    }

    /**
     * Undoes the acquisition that would have brought {@code owner} to {@code targetCount} holds,
     * if it took effect; the future is {@code true} when something was undone.
     */
    static CompletableFuture<Boolean> run(Topology topology, String name, String owner, int targetCount,
            long leaseMillis) {
        List<String> inLine = LockKeys.inLine(name);
        List<String> keys = List.of(name, LockKeys.channel(name), inLine.get(1), inLine.get(2), inLine.get(3));
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, keys,
                LockKeys.UNLOCK_MESSAGE, owner, (long) targetCount, leaseMillis, topology.channelKind().publishCommand(),
                Boxes.of(Turns.TURN_MILLIS), LockKeys.turnChannelPrefix(name));
    }
}
