package io.hasp.bench;

import java.util.List;

/**
 * One lock+unlock pair as a single script, for the server's ceiling on the pair: lock-core's
 * {@code acquire.lua} and {@code unlock.lua}, their texts unchanged, each wrapped as a Lua function after the
 * opening they share ({@code turns.lua}) and called one after the other on a new lock, as an uncontended
 * {@code lock()} then {@code unlock()} runs them (the keys of the lock's line are named after the lock's, on one
 * server). {@code redis-benchmark} sends it with random key names, so each call takes a free lock, frees it,
 * publishes the unlock message and leaves an unlock latch behind, as every real unlock does. One command
 * instead of two, with no client between them: what the server alone needs for a pair's scripts.
 *
 * <p>Keys: {@code KEYS[1]} the lock, {@code KEYS[2]} its unlock channel, {@code KEYS[3]} the unlock
 * latch. Arguments: {@code ARGV[1]} the lease in milliseconds, {@code ARGV[2]} the owner field,
 * {@code ARGV[3]} the latch's life in milliseconds. Returns what {@code unlock.lua} returns (1: freed), or
 * -1 when the lock was held by someone else (nothing changed).
 */
public final class LockPairScriptText {

    /** The classpath location of the unlock script. */
    public static final String UNLOCK_RESOURCE = "io/hasp/internal/lock/unlock.lua";

    /** ARGV[3]: the latch life a client with the default 3 s command timeout gives it (4 x 3 s + 1 s). */
    public static final String LATCH_MILLIS = "13000";

    /** The prefix of every key the ceiling's calls create; removed after the measurement. */
    public static final String KEY_PREFIX = "bench:pair:";

    /**
     * The keys redis-benchmark sends, each with its own random number ({@code -r}): a new lock, channel
     * and latch per call.
     */
    public static final List<String> KEYS = List.of(KEY_PREFIX + "{__rand_int__}", KEY_PREFIX + "channel:{__rand_int__}",
            KEY_PREFIX + "latch:{__rand_int__}");

    private LockPairScriptText() {
    }

    /**
     * Returns the pair's Lua text.
     *
     * @return both scripts, wrapped and called in turn
     * @throws IllegalStateException when lock-core's resources are not on the class path
     */
    public static String text() {
        return AcquireScriptText.resource(AcquireScriptText.TURNS_RESOURCE)
                + "\nlocal function acquire(KEYS, ARGV)\n"
                + AcquireScriptText.resource(AcquireScriptText.RESOURCE)
                + "\nend\n"
                + "local function unlock(KEYS, ARGV)\n"
                + AcquireScriptText.resource(UNLOCK_RESOURCE)
                + "\nend\n"
                + "local line, places, turn = KEYS[1] .. ':line', KEYS[1] .. ':places', KEYS[1] .. ':turn'\n"
                + "local heirs, grant = KEYS[1] .. ':heirs', KEYS[1] .. ':grant'\n"
                + "if acquire({KEYS[1], line, places, turn, heirs, grant}, {ARGV[1], ARGV[2], '1', '', '0', ''}) then\n"
                + "    return -1\n"
                + "end\n"
                + "return unlock({KEYS[1], KEYS[2], KEYS[3], line, places, turn, heirs, grant}, {'0', ARGV[1], ARGV[2],"
                + " ARGV[3], 'publish', '', '0', '', '0', '5000', '200', KEYS[2] .. ':', '0', ''})\n";
    }
}
