package io.hasp.demo;

import java.util.ArrayList;
import java.util.List;

/** The demo's command-line options; see {@link Demo} for their meaning. */
final class DemoOptions {

    String redis;
    String lock = "hasp-demo:lock";
    String counter = "hasp-demo:counter";
    int workers = 8;
    int increments = 500;
    int processes = 2;
    boolean workerProcess;

    static final String USAGE = String.join("\n",
            "usage: java -jar hasp-demo.jar [--redis URI] [--lock NAME] [--counter KEY] [--workers N]",
            "                               [--increments N] [--processes N]",
            "  --redis URI       use this Redis server, or a cluster with redis-cluster://h:p,h:p (default: start a private redis-server)",
            "  --lock NAME       the lock's name (default hasp-demo:lock)",
            "  --counter KEY     the locked counter; created if missing, never reset (default hasp-demo:counter);",
            "                    the unlocked counter is KEY:unlocked",
            "  --workers N       worker threads in total, spread over the processes (default 8)",
            "  --increments N    increments of each counter per worker (default 500)",
            "  --processes N     worker JVM processes, at least 2 (default 2)");

    static DemoOptions parse(String[] args) {
        DemoOptions o = new DemoOptions();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new IllegalArgumentException("help");
            }
            if (flag.equals("--worker-process")) {
                o.workerProcess = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + ": missing value");
            }
            String value = args[++i];
            switch (flag) {
                case "--redis" -> o.redis = value;
                case "--lock" -> o.lock = nonEmpty(flag, value);
                case "--counter" -> o.counter = nonEmpty(flag, value);
                case "--workers" -> o.workers = positive(flag, value, 1);
                case "--increments" -> o.increments = positive(flag, value, 1);
                case "--processes" -> o.processes = positive(flag, value, 2);
                default -> throw new IllegalArgumentException(flag + ": unknown option");
            }
        }
        return o;
    }

    /** The arguments of a worker process running {@code workers} of the workers. */
    List<String> workerArguments(String uri, int workersHere) {
        List<String> args = new ArrayList<>(List.of("--worker-process", "--redis", uri, "--lock", lock,
                "--counter", counter, "--workers", Integer.toString(workersHere),
                "--increments", Integer.toString(increments)));
        return args;
    }

    String unlockedCounter() {
        return counter + ":unlocked";
    }

    private static String nonEmpty(String flag, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(flag + ": \"\" (expected: a non-empty name)");
        }
        return value;
    }

    private static int positive(String flag, String value, int min) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + ": " + value + " (expected: an integer >= " + min + ")");
    }
}
