package io.hasp.internal.lock;

import io.hasp.Reply;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Typed call of {@code unlock.lua}: give back one hold; a re-sent request answers the first outcome. */
final class UnlockScript {

    static final Script SCRIPT = Turns.compose("unlock.lua");

    /**
     * The script's answers: nil not held, 0 still held, 1 freed with nobody in line, 2 handed over to the
     * successor named in the call, 3 freed while others listen on the shared channel, 4 freed with the turn to
     * the releasing process itself, 5 freed with the turn to another process.
     */
    static final Reply<ReleaseOutcome> REPLY = new Reply<>("UNLOCK_OUTCOME") {
        @Override
        public ReleaseOutcome integer(long value) {
            return switch ((int) value) {
                case 0 -> ReleaseOutcome.STILL_HELD;
                case 1 -> ReleaseOutcome.FREED;
                case 2 -> ReleaseOutcome.HANDED_OVER;
                case 3 -> ReleaseOutcome.FREED_FOR_ALL;
                case 4 -> ReleaseOutcome.FREED_OWN_TURN;
                case 5 -> ReleaseOutcome.FREED_TURN_ELSEWHERE;
                default -> throw unexpected("integer " + value);
            };
        }

        @Override
        public ReleaseOutcome nullValue() {
            return ReleaseOutcome.NOT_HELD;
        }
    };

    private static final String[] PLACES = {"0", "1", "2"};
    private static final Long PLACE_MILLIS = Turns.PLACE_MILLIS;
    private static final Long TURN_MILLIS = Turns.TURN_MILLIS;

    private UnlockScript() {
    }

    /**
     * Releases one hold of {@code owner} on lock {@code name} for process {@code process}, recording the outcome in
     * {@code latch} (a key under the kind's {@link LockKind#unlockLatchPrefix}, made by
     * {@code LockContext.unlockLatch}). When that was the owner's last hold, the lock goes straight to
     * {@code successor} (one hold, lease {@code successorLeaseMillis}) if one is named and no client listens on
     * the lock's shared channel; else it is freed, and the turn goes to the first process in line.
     *
     * @param staysInLine 2 when other waiters of {@code process} go on waiting (it takes a place at the end of
     *     the line first), 1 when its acquisitions are expected back (it takes a place when the turn went to
     *     another process), 0 when it keeps no place
     *
     * @param listensShared whether {@code process} itself listens on the lock's shared channel
     * @param successor the owner field of a parked waiter of this process, or null
     * @param heir with {@code staysInLine} 1: the process's heir for its place ({@link Grant#heir}), or ""
     * @return a future of the outcome; see {@link #REPLY}
     */
    static CompletableFuture<ReleaseOutcome> run(Topology topology, String name, String owner, String latch,
            long leaseMillis, long latchMillis, String process, int staysInLine, boolean listensShared,
            String successor, long successorLeaseMillis, String heir) {
        List<String> inLine = LockKeys.inLineWithGrants(name);
        List<String> keys = List.of(name, LockKeys.channel(name), latch, inLine.get(1), inLine.get(2), inLine.get(3),
                inLine.get(4));
        return topology.commands().evalsha(SCRIPT, REPLY, keys,
                LockKeys.UNLOCK_MESSAGE, Boxes.of(leaseMillis), owner, Boxes.of(latchMillis),
                topology.channelKind().publishCommand(), successor == null ? "" : successor,
                Boxes.of(successorLeaseMillis), process, PLACES[staysInLine], PLACE_MILLIS, TURN_MILLIS,
                LockKeys.turnChannelPrefix(name), listensShared ? "1" : "0", heir);
    }
}
