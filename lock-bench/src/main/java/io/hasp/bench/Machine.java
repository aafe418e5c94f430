package io.hasp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A one-line description of the machine a run happened on, for the results' heading. */
final class Machine {

    private Machine() {
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    static String describe() {
        String cpu = "unknown CPU";
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String line : lines) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).strip();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the CPU stays unnamed
        }
        long memoryGiB = -1;
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            memoryGiB = Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        }
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), "
                + (memoryGiB > 0 ? memoryGiB + " GiB RAM, " : "") + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch")
                + "; client JVMs and redis-server share these cores";
    }
}
