package io.hasp.cli;

import io.hasp.HaspClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code hasp locks PATTERN}: the names of the locks matching a glob, found with SCAN on every master. */
@Command(name = "locks", mixinStandardHelpOptions = true,
        description = "List the names of locks matching PATTERN (Redis's glob), with SCAN on every master, never KEYS.")
final class LocksCommand implements Callable<Integer> {

    @Mixin
    Connection connection;

    @Parameters(index = "0", paramLabel = "PATTERN", description = "the glob the names match, as orders:*")
    String pattern;

    @Option(names = "--limit", defaultValue = "1000", description = "the most names to list, 1 to 100000 (default ${DEFAULT-VALUE})")
    int limit;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<String> names;
        try (HaspClient client = connection.open()) {
            names = client.inspector().locks(pattern, limit);
        }
        if (connection.json) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("pattern", pattern);
            view.put("limit", limit);
            view.put("names", names);
            spec.commandLine().getOut().println(Json.write(view));
        } else {
            names.forEach(spec.commandLine().getOut()::println);
        }
        return 0;
    }
}
