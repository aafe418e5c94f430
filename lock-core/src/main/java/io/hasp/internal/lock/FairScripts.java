package io.hasp.internal.lock;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Typed calls of the fair lock's scripts: each is {@code fair_queue.lua} (the keys, the shared arguments, the
 * queue's helpers and the removal of waiters that stopped) followed by one operation's file. The positions of
 * keys and arguments are named here and in the files' headers only.
 */
final class FairScripts {

    static final Script ACQUIRE = compose("fair_acquire.lua");
    static final Script UNLOCK = compose("fair_unlock.lua");
    static final Script ROLLBACK = compose("fair_rollback.lua");
    static final Script FORCE_UNLOCK = compose("fair_force_unlock.lua");

    /** The unlock script's answers: nil not held, 0 still held, 1 freed (the head of the queue woken). */
    static final io.hasp.Reply<ReleaseOutcome> UNLOCK_REPLY = ReleaseOutcome.reply("FAIR_UNLOCK_OUTCOME",
            ReleaseOutcome.FREED, ReleaseOutcome.FREED);

    private FairScripts() {
    }

    private static Script compose(String operation) {
        String queue = Script.fromResource(FairScripts.class, "fair_queue.lua").text();
        String body = Script.fromResource(FairScripts.class, operation).text();
        return Script.of(operation, queue + "\n" + body);
    }

    /**
     * Takes or re-enters the fair lock for {@code owner}, bringing it to {@code targetCount} holds, or keeps it
     * waiting in line ({@code waits}; else it answers busy without taking a place).
     *
     * @return a future of {@link AcquireOutcome#ACQUIRED}, {@link AcquireOutcome#LOST}, or busy with how long to
     *     park before looking again
     */
    static CompletableFuture<AcquireOutcome> acquire(Topology topology, FairKind kind, String name, String owner,
            long leaseMillis, int targetCount, boolean waits) {
        return topology.commands().evalsha(ACQUIRE, AcquireOutcome.REPLY, keys(name, null),
                args(topology, kind, owner, Boxes.of(leaseMillis), (long) targetCount, waits ? "1" : "0"));
    }

    /** Gives back one hold of {@code owner}, recording the outcome in {@code latch}; see {@code fair_unlock.lua}. */
    static CompletableFuture<ReleaseOutcome> unlock(Topology topology, FairKind kind, String name, String owner,
            String latch, long leaseMillis, long latchMillis) {
        return topology.commands().evalsha(UNLOCK, UNLOCK_REPLY, keys(name, latch),
                args(topology, kind, owner, Boxes.of(leaseMillis), Boxes.of(latchMillis)));
    }

    /** Undoes the grant that made {@code targetCount} holds, if it took effect, and takes {@code owner} out of line. */
    static CompletableFuture<Boolean> rollback(Topology topology, FairKind kind, String name, String owner,
            int targetCount, long leaseMillis) {
        return topology.commands().evalsha(ROLLBACK, Replies.BOOLEAN, keys(name, null),
                args(topology, kind, owner, (long) targetCount, Boxes.of(leaseMillis)));
    }

    /** Frees the lock whoever holds it; the future is {@code true} when there was a lock to free. */
    static CompletableFuture<Boolean> forceUnlock(Topology topology, FairKind kind, String name) {
        return topology.commands().evalsha(FORCE_UNLOCK, Replies.BOOLEAN, keys(name, null),
                args(topology, kind, ""));
    }

    private static List<String> keys(String name, String latch) {
        List<String> keys = new ArrayList<>(6);
        keys.add(name);
        keys.add(LockKeys.fairQueue(name));
        keys.add(LockKeys.fairDeadlines(name));
        keys.add(LockKeys.fairPlaces(name));
        keys.add(LockKeys.channel(name));
        if (latch != null) {
            keys.add(latch);
        }
        return keys;
    }

    private static Object[] args(Topology topology, FairKind kind, String owner, Object... more) {
        Object[] args = new Object[4 + more.length];
        args[0] = owner;
        args[1] = Boxes.of(kind.placeLeaseMillis());
        args[2] = Boxes.of(kind.deadlineStepMillis());
        args[3] = topology.channelKind().publishCommand();
        System.arraycopy(more, 0, args, 4, more.length);
        return args;
    }
}
