package io.hasp.internal.connection;

import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.resp.CommandName;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code SCRIPT LOAD}s in flight, at most one per connection and script, that calls answered NOSCRIPT are sent
 * again behind.
 *
 * <p>A burst of calls of a script the server does not know (a node the client had not used yet, a promoted
 * replica, a restart, a flushed script cache) comes back NOSCRIPT call after call. The first of them sends the load;
 * every other one is sent again behind that same load instead of sending the script's whole text once more. Replies
 * come in the order the commands went on a connection: a call sent again behind the load runs after it. Recording a
 * load, sending it and queueing a call behind it happen under one lock, whatever thread recovers (the event loop, or
 * a blocking caller's own thread), so that no call is queued before the load it counts on. A load leaves the
 * record when it is answered; a later NOSCRIPT (the cache flushed again) loads anew. The lock is taken only on the
 * NOSCRIPT path.
 */
final class ScriptLoads {

    private static final CommandName SCRIPT = CommandName.of("SCRIPT");

    private record Key(RedisConnection connection, String sha1) {
    }

    private static final Map<Key, Command<Void>> IN_FLIGHT = new HashMap<>();   // guarded by the class

    private ScriptLoads() {
    }

    /**
     * Sends {@code call} again on {@code connection}, behind the load of {@code script} there: the one in flight,
     * or one sent now. When that load fails (a script the server cannot compile), {@code call} fails with it.
     */
    static void resendBehindLoad(RedisConnection connection, Script script, Command<?> call) {
        Command<Void> load;
        synchronized (ScriptLoads.class) {
            Key key = new Key(connection, script.sha1());
            load = IN_FLIGHT.get(key);
            if (load == null) {
                Command<Void> sent = new ArgsCommand<>(Replies.VOID, SCRIPT, "LOAD", script.text());
                IN_FLIGHT.put(key, sent);
                connection.dispatch(sent);
                sent.whenComplete((ok, failure) -> {
                    synchronized (ScriptLoads.class) {
                        IN_FLIGHT.remove(key, sent);
                    }
                });
                load = sent;
            }
            connection.send(call);
        }
        load.whenComplete((ok, failure) -> {
            if (failure != null) {
                call.completeExceptionally(failure);   // e.g. a syntax error: more useful than NOSCRIPT
            }
        });
    }

    /** How many loads are in flight now, on every connection; for tests. */
    static int inFlight() {
        synchronized (ScriptLoads.class) {
            return IN_FLIGHT.size();
        }
    }
}
