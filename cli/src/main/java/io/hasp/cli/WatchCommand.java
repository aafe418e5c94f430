package io.hasp.cli;

import io.hasp.HaspClient;
import io.hasp.inspect.PlainViews;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hasp watch NAME}: reads a lock every interval and prints a line each time its holders or waiters change (and
 * once at the start), until interrupted or {@code --changes} lines are printed.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Print a lock's holders and waiters each time they change, until interrupted.")
final class WatchCommand implements Callable<Integer> {

    @Mixin
    Connection connection;

    @Parameters(index = "0", paramLabel = "NAME", description = "the lock's name")
    String name;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s", converter = Durations.class,
            description = "how often to read it (default ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--changes", paramLabel = "N", defaultValue = "0",
            description = "stop after N lines (the first state counts); 0, the default: never")
    int changes;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (changes < 0) {
            throw new IllegalArgumentException("--changes: " + changes + " (expected: 0 or more)");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (HaspClient client = connection.open()) {
            Map<String, Object> last = null;
            int printed = 0;
            while (changes == 0 || printed < changes) {
                Map<String, Object> view = PlainViews.of(client.inspector().inspect(name));
                Map<String, Object> who = who(view);
                if (!who.equals(last)) {
                    last = who;
                    printed++;
                    if (connection.json) {
                        out.println(Json.write(view));
                    } else {
                        out.println(Instant.now() + "  " + Tables.summary(view));
                    }
                    out.flush();
                }
                if (changes == 0 || printed < changes) {
                    Thread.sleep(interval.toMillis());   // the pace of the polling, not a wait for a condition
                }
            }
        }
        return 0;
    }

    /** What a line reports, without the leases and times that change at every reading. */
    private static Map<String, Object> who(Map<String, Object> view) {
        Map<String, Object> who = new LinkedHashMap<>();
        who.put("kind", view.get("kind"));
        who.put("holders", strip(view.get("holders"), "leaseLeftMillis"));
        who.put("queue", strip(view.get("queue"), "placeLeftMillis"));
        who.put("waitingProcesses", view.get("waitingProcesses"));
        who.put("turn", view.get("turn"));
        who.put("listeners", view.get("listeners"));
        return who;
    }

    @SuppressWarnings("unchecked")
    private static Object strip(Object entries, String key) {
        return ((java.util.List<Map<String, Object>>) entries).stream().map(entry -> {
            Map<String, Object> copy = new LinkedHashMap<>(entry);
            copy.remove(key);
            return copy;
        }).toList();
    }
}
