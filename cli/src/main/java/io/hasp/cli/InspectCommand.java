package io.hasp.cli;

import io.hasp.HaspClient;
import io.hasp.inspect.PlainViews;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hasp inspect NAME}: what Redis holds for a lock, read in one round trip that changes nothing. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Show a lock's kind, holders (with their processes), lease, token, queue and waiters.")
final class InspectCommand implements Callable<Integer> {

    @Mixin
    Connection connection;

    @Parameters(index = "0", paramLabel = "NAME", description = "the lock's name")
    String name;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Map<String, Object> view;
        try (HaspClient client = connection.open()) {
            view = PlainViews.of(client.inspector().inspect(name));
        }
        if (connection.json) {
            spec.commandLine().getOut().println(Json.write(view));
        } else {
            Tables.lock(view).forEach(spec.commandLine().getOut()::println);
        }
        return 0;
    }
}
