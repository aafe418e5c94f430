package io.hasp.it.history;

import io.hasp.RedisCommands;
import io.hasp.Replies;
import io.hasp.Script;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A resource guarded by a fenced lock, as a storage service that checks fencing tokens would be: a Redis key keeps
 * the highest token it accepted, and a write that brings a lower one is refused. So a holder that outlived its lease
 * (paused, then resumed) cannot write over the work of the holder that came after it. The writes it accepted are
 * appended to a list, for the test to read.
 */
final class FencedResource {

    private static final Script WRITE = Script.of("fenced_resource_write", """
            local last = tonumber(redis.call('get', KEYS[1]) or '0')
            if tonumber(ARGV[1]) < last then
                redis.call('incr', KEYS[3])
                return 0
            end
            redis.call('set', KEYS[1], ARGV[1])
            redis.call('rpush', KEYS[2], ARGV[2])
            return 1
            """);

    private final String name;

    FencedResource(String name) {
        this.name = name;
    }

    /** Writes {@code value} with fencing token {@code token}; the future is true when it was accepted. */
    CompletableFuture<Boolean> write(RedisCommands redis, long token, String value) {
        return redis.evalsha(WRITE, Replies.BOOLEAN, List.of(lastTokenKey(), acceptedKey(), refusedKey()), token,
                value);
    }

    /** The key of the highest token accepted so far. */
    String lastTokenKey() {
        return "{" + name + "}:last-token";
    }

    /** The list of the values accepted, in order. */
    String acceptedKey() {
        return "{" + name + "}:accepted";
    }

    /** The number of writes refused. */
    String refusedKey() {
        return "{" + name + "}:refused";
    }
}
