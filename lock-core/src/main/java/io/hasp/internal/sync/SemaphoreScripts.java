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
 *
 * <p>Beside it, hasp's line of waiting processes ({@code semaphore_line.lua}, the opening of the acquire, release and
 * pass scripts): a release wakes the first processes in line on their own channels, as many as the permits it adds,
 * instead of every process that waits; its announcement on the shared channel, for Redisson's waiters, is marked so
 * that hasp's processes in line pass it by.
 */
final class SemaphoreScripts {

    /** How long a waiting process keeps its place in line: its waiters look again at least every few seconds. */
    static final long PLACE_MILLIS = 10_000;

    private static final Script ACQUIRE = inLine("semaphore_acquire.lua");
    private static final Script RELEASE = inLine("semaphore_release.lua");
    private static final Script PASS = inLine("semaphore_pass.lua");
    private static final Script SET = Script.fromResource(SemaphoreScripts.class, "semaphore_set.lua");
    private static final Script DRAIN = Script.fromResource(SemaphoreScripts.class, "semaphore_drain.lua");

    private SemaphoreScripts() {
    }

    private static Script inLine(String operation) {
        String line = Script.fromResource(SemaphoreScripts.class, "semaphore_line.lua").text();
        return Script.of(operation, line + "\n" + Script.fromResource(SemaphoreScripts.class, operation).text());
    }

    /** The names derived from one semaphore name. */
    private record Names(String name, String channel, List<String> inLine, List<String> releaseKeys,
            String wakePrefix) {
    }

    /** Slots of the cache of derived names (a power of two). */
    private static final int CACHE_SLOTS = 1024;

    /**
     * Derived names of recently used semaphores, direct-mapped by the name's hash: waiting on the same names again
     * builds no strings. Racy on purpose: a slot holds an immutable record or null, and a lost update only costs
     * building the names again.
     */
    private static final Names[] CACHE = new Names[CACHE_SLOTS];

    private static Names names(String name) {
        int h = name.hashCode();
        int slot = (h ^ (h >>> 16)) & (CACHE_SLOTS - 1);
        Names n = CACHE[slot];
        if (n == null || !n.name.equals(name)) {
            String channel = tagged("redisson_sc", name);
            String line = tagged("hasp_semaphore_line", name);
            String places = tagged("hasp_semaphore_line_places", name);
            String turns = tagged("hasp_semaphore_turns", name);
            n = new Names(name, channel, List.of(name, line, places, turns),
                    List.of(name, channel, line, places, turns),
                    tagged("hasp_semaphore_wake__channel", name) + ':');
            CACHE[slot] = n;
        }
        return n;
    }

    /** The channel on which the permits of semaphore {@code name} are announced: {@code redisson_sc:{<name>}}. */
    static String channel(String name) {
        return names(name).channel;
    }

    /** What the own channels of semaphore {@code name}'s waiting processes start with. */
    private static String wakePrefix(String name) {
        return names(name).wakePrefix;
    }

    /**
     * The channel on which {@code process} hears that permits of semaphore {@code name} were freed:
     * {@code hasp_semaphore_wake__channel:{<name>}:<process>}.
     */
    static String wakeChannel(String name, String process) {
        return wakePrefix(name) + process;
    }

    private static String tagged(String prefix, String name) {
        return name.indexOf('{') >= 0 ? prefix + ':' + name : prefix + ":{" + name + '}';
    }

    private static List<String> inLineKeys(String name) {
        return names(name).inLine;
    }

    /**
     * Takes {@code permits} when that many are free; the future is {@code true} when they were taken. When they were
     * not and {@code placeMillis} is above 0, {@code process} (unless empty) stands in the semaphore's line.
     */
    static CompletableFuture<Boolean> acquire(Topology topology, String name, int permits, String process,
            long placeMillis) {
        return topology.commands().evalsha(ACQUIRE, Replies.BOOLEAN, inLineKeys(name), (long) permits, process,
                placeMillis);
    }

    /**
     * Adds {@code permits} (given back, or new) and tells the waiters: the first processes in line on their own
     * channels (unless this client's processes take no place in line), and Redisson's on the shared channel; the
     * future is the number free afterwards.
     */
    static CompletableFuture<Long> release(Topology topology, String name, int permits) {
        Names names = names(name);
        return topology.commands().evalsha(RELEASE, Replies.LONG, names.releaseKeys, (long) permits,
                topology.channelKind().publishCommand(), topology.publishCountsListeners() ? names.wakePrefix : "");
    }

    /**
     * Passes a wake that none of {@code process}'s waiters could use to the next process in line, when permits are
     * free and {@code hops} (at least 1) allows; the future is {@code true} when another process was woken.
     */
    static CompletableFuture<Boolean> pass(Topology topology, String name, String process, int hops) {
        return topology.commands().evalsha(PASS, Replies.BOOLEAN, inLineKeys(name), process, (long) hops,
                topology.channelKind().publishCommand(), wakePrefix(name));
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
