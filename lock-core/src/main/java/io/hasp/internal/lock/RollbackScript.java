package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Reply;
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
        return send(topology, Replies.BOOLEAN, name, owner, targetCount, leaseMillis, "", "", "", 0);
    }

    /**
     * Declines {@code grant}, heard by process {@code process}: unless the granted owner's acquire took it as its own,
     * the lock goes to {@code successor} (one hold, lease {@code successorLeaseMillis}) when not null, else it is
     * freed and given on.
     *
     * @return a future of 2 when it went to the successor, 1 when it was freed, 0 when there was nothing to decline
     */
    static CompletableFuture<Long> decline(Topology topology, String name, String process, Grant grant,
            String successor, long successorLeaseMillis) {
        return send(topology, Replies.LONG, name, grant.owner(), 0, grant.leaseMillis(), process, grant.heir(),
                successor == null ? "" : successor, successorLeaseMillis);
    }

    private static <T> CompletableFuture<T> send(Topology topology, Reply<T> reply, String name, String owner,
            int targetCount, long leaseMillis, String process, String heir, String successor,
            long successorLeaseMillis) {
        List<String> inLine = LockKeys.inLineWithGrants(name);
        List<String> keys = List.of(name, LockKeys.channel(name), inLine.get(1), inLine.get(2), inLine.get(3),
                inLine.get(4));
        return topology.commands().evalsha(SCRIPT, reply, keys, LockKeys.UNLOCK_MESSAGE, owner, (long) targetCount,
                leaseMillis, topology.channelKind().publishCommand(), Boxes.of(Turns.TURN_MILLIS),
                LockKeys.turnChannelPrefix(name), process, heir, successor, Boxes.of(successorLeaseMillis));
    }
}
