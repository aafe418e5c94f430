package io.hasp.cli;

import io.hasp.HaspClient;
import io.hasp.inspect.LockHolder;
import io.hasp.inspect.LockInfo;
import io.hasp.lock.rw.ForceUnlock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hasp force-unlock NAME --yes}: frees a lock whoever holds it, as its kind's own force-unlock does, and names
 * the holders it removed. Without {@code --yes} it changes nothing.
 */
@Command(name = "force-unlock", mixinStandardHelpOptions = true,
        description = {"Free a lock whoever holds it, and name the holders removed.",
                "A holder keeps working until it learns it lost the lock (at its next renewal or unlock): use it for a"
                        + " holder known to be gone or stuck."})
final class ForceUnlockCommand implements Callable<Integer> {

    @Mixin
    Connection connection;

    @Parameters(index = "0", paramLabel = "NAME", description = "the lock's name")
    String name;

    @Option(names = "--yes", description = "do it (without it, nothing is changed)")
    boolean yes;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!yes) {
            spec.commandLine().getErr().println("hasp: force-unlock frees " + name + " whoever holds it, and its holder"
                    + " keeps working until it learns it lost the lock; add --yes to do it");
            return HaspCli.BAD_INPUT;
        }
        LockInfo before;
        boolean unlocked;
        try (HaspClient client = connection.open()) {
            before = client.inspector().inspect(name);
            unlocked = ForceUnlock.run(client, before);
        }
        List<String> holders = new ArrayList<>();
        for (LockHolder holder : before.holders()) {
            holders.add(holder.owner() + before.process(holder.clientId()).map(p -> " (" + p.describe() + ")").orElse(""));
        }
        if (connection.json) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("name", name);
            view.put("unlocked", unlocked);
            view.put("holders", holders);
            spec.commandLine().getOut().println(Json.write(view));
        } else if (unlocked) {
            spec.commandLine().getOut().println("freed " + name + ", held by " + String.join(", ", holders));
        } else {
            spec.commandLine().getOut().println(name + " was not held");
        }
        return 0;
    }
}
