package io.hasp.inspect;

import java.time.Instant;
import java.util.Objects;

/**
 * The process of a hasp client, as the client's own record in Redis names it: each hasp client keeps one while it
 * runs, gone within a watchdog lease of its end. It names no address and no credential.
 *
 * @param clientId the client's id, the prefix of its owners
 * @param application the application's name: the client's configured name ({@code HaspConfig.clientName()}), else
 *     the main class or jar the process was started with
 * @param host the machine's name
 * @param pid the process id on that machine
 * @param startedAt when the client was created
 */
public record ClientProcess(String clientId, String application, String host, long pid, Instant startedAt) {

    /** Checks the components. */
    public ClientProcess {
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(startedAt, "startedAt");
    }

    /** @return for people: {@code "orders-service on host-3, pid 4121, client since 2026-11-28T12:04:31Z"} */
    public String describe() {
        return application + " on " + host + ", pid " + pid + ", client since " + startedAt;
    }
}
