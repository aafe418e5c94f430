package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code pass_turn.lua}: a process with nobody left to take its turn passes it on. */
public final class PassTurnScript {

    static final Script SCRIPT = Turns.compose("pass_turn.lua");

    private PassTurnScript() {
    }

    /** Passes {@code process}'s turn of lock {@code name} on; the future is {@code true} when it went on. */
    static CompletableFuture<Boolean> run(Topology topology, String name, String process) {
        return run(topology, LockKeys.inLine(name), LockKeys.turnChannelPrefix(name), process);
    }

    /**
     * Passes {@code process}'s turn of a lock on, for any kind whose waiters take turns.
     *
     * @param topology where the lock lives
     * @param inLine the lock's hash, line, places and turn keys, in that order (see {@code turns.lua})
     * @param turnChannelPrefix what the lock's turn channels start with
     * @param process the passing process
     * @return a future of {@code true} when the turn went on
     */
    public static CompletableFuture<Boolean> run(Topology topology, List<String> inLine, String turnChannelPrefix,
            String process) {
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, inLine, process,
                topology.channelKind().publishCommand(), Boxes.of(Turns.TURN_MILLIS), turnChannelPrefix);
    }
}
