package io.hasp.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The lock's acquire script as {@code lock()} runs it: lock-core's resource {@code io/hasp/internal/lock/turns.lua}
 * (the line of waiting processes) followed by {@code acquire.lua}, so the raw EVALSHA rows (hasp's client, Lettuce,
 * redis-benchmark) all run exactly what {@code lock()} runs.
 *
 * <p>Arguments as the script's header names them: {@link #keys} (the lock, then its line, places and turn),
 * {@code ARGV[1]} lease ms, {@code ARGV[2]} owner field, {@code ARGV[3]} the hold count the call brings the owner
 * to (no process: a single try). The raw rows call it again and again with count 1 for one owner per key: after
 * the first call each call is a re-acquire by the holder (EXISTS, HGET, PEXPIRE, reply nil), the steady state of
 * a held lock.
 */
public final class AcquireScriptText {

    /** The classpath location of the script. */
    public static final String RESOURCE = "io/hasp/internal/lock/acquire.lua";

    /** The classpath location of the opening every lock script shares. */
    public static final String TURNS_RESOURCE = "io/hasp/internal/lock/turns.lua";

    /** ARGV[1]: the lease the raw rows pass, in milliseconds. */
    public static final String LEASE_MILLIS = "30000";

    /** ARGV[2]: the owner field the raw rows pass. */
    public static final String OWNER = "bench-raw:1";

    /** ARGV[3]: the hold count the raw rows pass. */
    public static final String COUNT = "1";

    private AcquireScriptText() {
    }

    /**
     * Returns the script's Lua text, as lock-core composes it.
     *
     * @return the text of {@value #TURNS_RESOURCE}, a line break, and the text of {@value #RESOURCE}
     * @throws IllegalStateException when lock-core's resources are not on the class path
     */
    public static String text() {
        return resource(TURNS_RESOURCE) + "\n" + resource(RESOURCE);
    }

    /**
     * The keys of a call on lock {@code lock}: the lock, and the keys of its line and its grants (names of the raw
     * rows' own, on one server).
     *
     * @param lock the lock's key
     * @return the six keys, in the script's order
     */
    public static List<String> keys(String lock) {
        return List.of(lock, lock + ":line", lock + ":places", lock + ":turn", lock + ":heirs", lock + ":grant");
    }

    /**
     * Reads one of lock-core's script resources.
     *
     * @param path the classpath location
     * @return its text
     * @throws IllegalStateException when lock-core's resource is not on the class path
     */
    static String resource(String path) {
        try (InputStream in = AcquireScriptText.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + ": not on the class path (expected: lock-core's jar)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
