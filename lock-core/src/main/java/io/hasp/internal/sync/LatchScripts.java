package io.hasp.internal.sync;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Typed calls of the count-down latch's scripts, in the layout Redisson 4.x's {@code RCountDownLatch} uses: the count
 * a decimal number at the latch's name, announcements on {@code redisson_countdownlatch__channel__{<name>}}.
 */
final class LatchScripts {

    private static final Script SET = Script.fromResource(LatchScripts.class, "latch_set.lua");
    private static final Script COUNT_DOWN = Script.fromResource(LatchScripts.class, "latch_count_down.lua");
    private static final Script DELETE = Script.fromResource(LatchScripts.class, "latch_delete.lua");

    private LatchScripts() {
    }

    /** The latch's channel: {@code redisson_countdownlatch__channel__{<name>}}, braces always added. */
    static String channel(String name) {
        return "redisson_countdownlatch__channel__{" + name + '}';
    }

    /** Sets the count unless the latch has one; the future is {@code true} when it was set. */
    static CompletableFuture<Boolean> trySet(Topology topology, String name, long count) {
        return topology.commands().evalsha(SET, Replies.BOOLEAN, List.of(name, channel(name)), count,
                topology.channelKind().publishCommand());
    }

    /** Counts down by one; the future is the count afterwards (0 or below: open). */
    static CompletableFuture<Long> countDown(Topology topology, String name) {
        return topology.commands().evalsha(COUNT_DOWN, Replies.LONG, List.of(name, channel(name)),
                topology.channelKind().publishCommand());
    }

    /** Deletes the latch; the future is {@code true} when it had a count. */
    static CompletableFuture<Boolean> delete(Topology topology, String name) {
        return topology.commands().evalsha(DELETE, Replies.BOOLEAN, List.of(name, channel(name)),
                topology.channelKind().publishCommand());
    }
}
