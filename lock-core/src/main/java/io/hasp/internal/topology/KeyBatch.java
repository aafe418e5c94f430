package io.hasp.internal.topology;

import io.hasp.RedisCommands;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One script call about many keys that answers one character per key, in order, such as the
 * watchdog's renewal of many holds ({@code '1'} renewed, {@code '0'} no longer held). A
 * {@link Topology} decides where it goes and how its keys travel: declared, when they share a slot
 * (or the server has no slots), or passed among the arguments, when one cluster node serves keys of
 * several slots. Immutable.
 */
public interface KeyBatch {

    /** The keys the call is about, one per character of its answer; each names the server that serves it. */
    List<String> keys();

    /** The same call for the keys at {@code positions} only (ascending indexes into {@link #keys()}). */
    KeyBatch only(List<Integer> positions);

    /**
     * Sends the call on {@code redis}.
     *
     * @param keysDeclared true to declare the keys (they must then share one slot); false to pass them
     *     among the arguments ({@code [k, key1..keyk, arg1..argn]}), for one node serving several slots
     * @return a future of one character per key
     */
    CompletableFuture<String> send(RedisCommands redis, boolean keysDeclared);
}
