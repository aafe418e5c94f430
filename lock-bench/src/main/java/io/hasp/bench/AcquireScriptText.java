package io.hasp.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The lock's acquire script, read from lock-core's resource {@code io/hasp/internal/lock/acquire.lua}, so the raw
 * EVALSHA rows (hasp's client, Lettuce, redis-benchmark) all run exactly what {@code lock()} runs.
 *
 * <p>Arguments as the script's header names them: {@code KEYS[1]} the lock, {@code ARGV[1]} lease ms,
 * {@code ARGV[2]} owner field, {@code ARGV[3]} the hold count the call brings the owner to. The raw rows
 * call it again and again with count 1 for one owner per key: after the first call each call is a
 * re-acquire by the holder (HGET, PEXPIRE, reply nil), the steady state of a held lock.
 */
public final class AcquireScriptText {

    /** The classpath location of the script. */
    public static final String RESOURCE = "io/hasp/internal/lock/acquire.lua";

    /** ARGV[1]: the lease the raw rows pass, in milliseconds. */
    public static final String LEASE_MILLIS = "30000";

    /** ARGV[2]: the owner field the raw rows pass. */
    public static final String OWNER = "bench-raw:1";

    /** ARGV[3]: the hold count the raw rows pass. */
    public static final String COUNT = "1";

    private AcquireScriptText() {
    }

    /**
     * Returns the script's Lua text.
     *
     * @return the text of {@value #RESOURCE}
     * @throws IllegalStateException when lock-core's resource is not on the class path
     */
    public static String text() {
        return resource(RESOURCE);
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
