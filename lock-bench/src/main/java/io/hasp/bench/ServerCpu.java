package io.hasp.bench;

import io.hasp.testing.RedisProbe;

/**
 * The server's CPU time so far, from one {@code INFO cpu}: in Redis itself ({@code used_cpu_user}) and in the
 * kernel on its behalf ({@code used_cpu_sys}), in seconds.
 *
 * @param userSeconds {@code used_cpu_user}
 * @param kernelSeconds {@code used_cpu_sys}
 */
record ServerCpu(double userSeconds, double kernelSeconds) {

    /** Reads both figures from one {@code INFO cpu}; fails when the server names either not. */
    static ServerCpu read(RedisProbe probe) {
        String info = String.valueOf(probe.call("INFO", "cpu"));
        return new ServerCpu(field(info, "used_cpu_user"), field(info, "used_cpu_sys"));
    }

    /** User and kernel time together. */
    double seconds() {
        return userSeconds + kernelSeconds;
    }

    private static double field(String info, String name) {
        for (String line : info.split("\\R")) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        throw new IllegalStateException("INFO cpu named no " + name);
    }
}
