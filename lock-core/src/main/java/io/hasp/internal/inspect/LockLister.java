package io.hasp.internal.inspect;

import io.hasp.RedisCommands;
import io.hasp.RedisProtocolException;
import io.hasp.Replies;
import io.hasp.resp.RespArray;
import io.hasp.resp.RespBulkString;
import io.hasp.resp.RespValue;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Lists the names of locks with {@code SCAN ... TYPE hash} on every master, one step of {@link #STEP} keys at a
 * time, never {@code KEYS}: each step is short work for the server, whatever the size of its keyspace. Every lock is
 * a hash, so the names are those of locks, and of any other hash that matches the pattern; the records in which hasp
 * clients name their processes ({@code hasp_client:{<id>}}), hashes too, are left out.
 */
public final class LockLister {

    /** The most names one listing gives. */
    public static final int MAX_LIMIT = 100_000;
    /** SCAN's COUNT: how many keys one step looks at. */
    static final int STEP = 1_000;

    private LockLister() {
    }

    /**
     * A future of at most {@code limit} names of hashes matching {@code pattern} on {@code masters}, visited one
     * after the other; each name once.
     */
    public static CompletableFuture<List<String>> list(List<RedisCommands> masters, String pattern, int limit) {
        Set<String> found = new LinkedHashSet<>();
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (RedisCommands master : masters) {
            chain = chain.thenCompose(done -> scan(master, pattern, limit, "0", found));
        }
        return chain.thenApply(done -> List.copyOf(found));
    }

    private static CompletableFuture<Void> scan(RedisCommands master, String pattern, int limit, String cursor,
            Set<String> found) {
        if (found.size() >= limit) {
            return CompletableFuture.completedFuture(null);
        }
        return master.execute(Replies.VALUE, "SCAN", cursor, "MATCH", pattern, "COUNT", STEP, "TYPE", "hash")
                .thenCompose(reply -> {
                    String next = page(reply, found, limit);
                    return next.equals("0") ? CompletableFuture.completedFuture(null)
                            : scan(master, pattern, limit, next, found);
                });
    }

    /** Adds the names of one SCAN reply, {@code [cursor, [name...]]}, to {@code found}; returns the next cursor. */
    static String page(RespValue reply, Set<String> found, int limit) {
        if (reply instanceof RespArray page && page.elements().size() == 2
                && page.elements().get(0) instanceof RespBulkString cursor
                && page.elements().get(1) instanceof RespArray names) {
            for (RespValue name : names.elements()) {
                if (!(name instanceof RespBulkString text)) {
                    throw new RedisProtocolException("SCAN: a name that is not a string: " + name, null);
                }
                String key = text.asString();
                if (found.size() < limit && !key.startsWith(ClientRecord.KEY_PREFIX)) {
                    found.add(key);
                }
            }
            return cursor.asString();
        }
        throw new RedisProtocolException("SCAN: unexpected reply " + reply, null);
    }
}
