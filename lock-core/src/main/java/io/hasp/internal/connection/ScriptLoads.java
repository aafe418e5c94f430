package io.hasp.internal.connection;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.resp.CommandName;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code SCRIPT LOAD}s one connection has sent and not yet had answered, at most one per script.
 *
 * <p>A burst of calls of a script the server does not know (a node the client has not used yet, a restart, a
 * flushed script cache) comes back NOSCRIPT call after call. The first of them loads the script; every other one
 * is sent again behind that same load instead of sending the script's whole text once more. Replies come in the
 * order the commands went, so a call whose NOSCRIPT arrives before the load is answered was run before the load,
 * and, sent again now on the same connection, runs after it. Once the load is answered, a later NOSCRIPT (the
 * cache flushed again) loads anew. Loads are asked for on the connection's event loop; an entry goes when its load
 * completes, which a timeout or the connection's close may do on another thread, hence the concurrent map.
 */
final class ScriptLoads {

    private static final CommandName SCRIPT = CommandName.of("SCRIPT");

    private final RedisConnection connection;
    private final Map<String, CompletableFuture<Void>> unanswered = new ConcurrentHashMap<>(4);

    ScriptLoads(RedisConnection connection) {
        this.connection = connection;
    }

    /**
     * The load of {@code script} on this connection that a command sent now comes after: the one still unanswered,
     * or a new one sent now.
     *
     * @return completes when the server answered the load (exceptionally when it could not load it)
     */
    CompletableFuture<Void> load(Script script) {
        String sha = script.sha1();
        CompletableFuture<Void> load = unanswered.get(sha);
        if (load != null) {
            return load;
        }
        ArgsCommand<Void> sent = new ArgsCommand<>(Replies.VOID, SCRIPT, "LOAD", script.text());
        unanswered.put(sha, sent);
        sent.whenComplete((ok, failure) -> unanswered.remove(sha, sent));
        return connection.dispatch(sent);
    }
}
