package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code pass_turn.lua}: a process with nobody left to take its turn passes it on. */
final class PassTurnScript {

    static final Script SCRIPT = Turns.compose("pass_turn.lua");

    private PassTurnScript() {
    }

    /** Passes {@code process}'s turn of lock {@code name} on; the future is {@code true} when it went on. */
    static CompletableFuture<Boolean> run(Topology topology, String name, String process) {
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, LockKeys.inLine(name), process,
                topology.channelKind().publishCommand(), Boxes.of(Turns.TURN_MILLIS), LockKeys.turnChannelPrefix(name));
    }
}
