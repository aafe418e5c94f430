package io.hasp.bench.fleet;

import java.util.HashMap;
import java.util.Map;

/**
 * A snapshot of the server's {@code INFO commandstats}: calls and microseconds per command. Two
 * snapshots around a fleet run tell what the fleet asked of the server (script calls and subscriptions
 * per critical section) and how long the server actually worked for it. Immutable.
 */
final class CommandStats {

    /** Top-level commands a fleet sends; the commands its scripts run inside are not added again. */
    private static final String[] TOP_LEVEL = {"evalsha", "eval", "get", "set", "del", "subscribe", "unsubscribe",
        "ping", "script"};

    private final Map<String, long[]> byCommand;

    private CommandStats(Map<String, long[]> byCommand) {
        this.byCommand = byCommand;
    }

    /**
     * Parses the text of {@code INFO commandstats}.
     *
     * @param info lines like {@code cmdstat_evalsha:calls=12,usec=345,usec_per_call=28.75,...}
     * @return the snapshot
     */
    static CommandStats parse(String info) {
        Map<String, long[]> map = new HashMap<>();
        for (String line : info.split("\\R")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            int colon = line.indexOf(':');
            String command = line.substring("cmdstat_".length(), colon).toLowerCase();
            long calls = 0;
            long usec = 0;
            for (String field : line.substring(colon + 1).split(",")) {
                if (field.startsWith("calls=")) {
                    calls = Long.parseLong(field.substring(6));
                } else if (field.startsWith("usec=")) {
                    usec = Long.parseLong(field.substring(5));
                }
            }
            map.put(command, new long[] {calls, usec});
        }
        return new CommandStats(map);
    }

    /**
     * Returns the calls of one command since an earlier snapshot.
     *
     * @param earlier the snapshot taken before
     * @param command the command, lower case
     * @return the number of calls in between
     */
    long calls(CommandStats earlier, String command) {
        return get(command)[0] - earlier.get(command)[0];
    }

    /**
     * Returns the server time spent on the top-level commands since an earlier snapshot.
     *
     * @param earlier the snapshot taken before
     * @return microseconds
     */
    long busyMicros(CommandStats earlier) {
        long total = 0;
        for (String command : TOP_LEVEL) {
            total += get(command)[1] - earlier.get(command)[1];
        }
        return total;
    }

    private long[] get(String command) {
        return byCommand.getOrDefault(command, new long[2]);
    }
}
