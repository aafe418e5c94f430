package io.hasp.internal.sync;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Typed calls of the semaphore's scripts, in the layout Redisson 4.x's {@code RSemaphore} uses: the free permits a
 * decimal string at the semaphore's name, releases announced on {@code redisson_sc:{<name>}} with the new number of
 * free permits, so that hasp and Redisson clients share one semaphore.
 */
final class SemaphoreScripts {

    private static final Script ACQUIRE = Script.fromResource(SemaphoreScripts.class, "semaphore_acquire.lua");
    private static final Script RELEASE = Script.fromResource(SemaphoreScripts.class, "semaphore_release.lua");
    private static final Script SET = Script.fromResource(SemaphoreScripts.class, "semaphore_set.lua");
    private static final Script DRAIN = Script.fromResource(SemaphoreScripts.class, "semaphore_drain.lua");

    private SemaphoreScripts() {
    }

    /** The channel on which the permits of semaphore {@code name} are announced: {@code redisson_sc:{<name>}}. */
    static String channel(String name) {
        return name.indexOf('{') >= 0 ? "redisson_sc:" + name : "redisson_sc:{" + name + '}';
    }

    /** Takes {@code permits} when that many are free; the future is {@code true} when they were taken. */
    static CompletableFuture<Boolean> acquire(Topology topology, String name, int permits) {
        return topology.commands().evalsha(ACQUIRE, Replies.BOOLEAN, List.of(name), (long) permits);
    }

    /** Adds {@code permits} (given back, or new) and tells the waiters; the future is the number free afterwards. */
    static CompletableFuture<Long> release(Topology topology, String name, int permits) {
        return topology.commands().evalsha(RELEASE, Replies.LONG, List.of(name, channel(name)), (long) permits,
                topology.channelKind().publishCommand());
    }

    /** Sets the permits to {@code permits} unless they were set before; the future is {@code true} when set. */
    static CompletableFuture<Boolean> trySet(Topology topology, String name, int permits) {
        return topology.commands().evalsha(SET, Replies.BOOLEAN, List.of(name, channel(name)), (long) permits,
                topology.channelKind().publishCommand());
    }

    /** Takes every free permit; the future is how many were taken. */
    static CompletableFuture<Long> drain(Topology topology, String name) {
        return topology.commands().evalsha(DRAIN, Replies.LONG, List.of(name));
    }
}
