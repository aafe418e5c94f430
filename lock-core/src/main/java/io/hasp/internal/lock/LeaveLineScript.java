package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code leave_line.lua}: a closing process leaves a lock's line, declining a grant it never took. */
final class LeaveLineScript {

    static final Script SCRIPT = Turns.compose("leave_line.lua");

    private LeaveLineScript() {
    }

    /**
     * Process {@code process} leaves the line of lock {@code name}, whose owners {@code held} hold it by their own
     * count; the future is {@code true} when a grant it never took was declined.
     */
    static CompletableFuture<Boolean> run(Topology topology, String name, String process, List<String> held) {
        List<String> inLine = LockKeys.inLineWithGrants(name);
        List<String> keys = List.of(name, LockKeys.channel(name), inLine.get(1), inLine.get(2), inLine.get(3),
                inLine.get(4));
        List<Object> args = new ArrayList<>(List.of(LockKeys.UNLOCK_MESSAGE, process,
                topology.channelKind().publishCommand(), Boxes.of(Turns.TURN_MILLIS), LockKeys.turnChannelPrefix(name)));
        args.addAll(held);
        return topology.commands().evalsha(SCRIPT, Replies.BOOLEAN, keys, args.toArray());
    }
}
