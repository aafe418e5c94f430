package io.hasp.cli;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options every command shares: which server (any URI hasp accepts: {@code redis://}, {@code rediss://} with
 * TLS, {@code redis-sentinel://}, {@code redis-cluster://}, {@code redis-socket://}), its password from
 * {@code $HASP_PASSWORD} rather than the command line (where other users of the machine can read it), a CA file for
 * TLS, the timeout, and the JSON form of the output.
 */
final class Connection {

    @Option(names = "--uri", paramLabel = "URI", defaultValue = "${env:HASP_URI:-redis://127.0.0.1:6379}",
            description = "the server, as hasp's URIs name it (default: $HASP_URI, else ${DEFAULT-VALUE})")
    String uri;

    @Option(names = "--json", description = "print JSON (one object per line) instead of a table")
    boolean json;

    @Option(names = "--ca-file", paramLabel = "PEM",
            description = "trusted CA certificates (PEM) for a TLS server (rediss://...), instead of the JDK's")
    Path caFile;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "PT5S", converter = Durations.class,
            description = "how long connecting and each command may take, as 5s, 500ms or PT5S (default 5s)")
    Duration timeout;

    /** A client on the server, or the typed error of {@link HaspClient#create(HaspConfig)}. */
    HaspClient open() {
        HaspConfig.Builder config = HaspConfig.builder().uri(uri).connectTimeout(timeout).commandTimeout(timeout)
                .clientName("hasp-cli");
        if (caFile != null) {
            config.caFile(caFile);
        }
        String password = System.getenv("HASP_PASSWORD");
        if (password != null && !password.isEmpty()) {
            config.password(password);
        }
        return HaspClient.create(config.build());
    }

    /** The URI with any password hidden, for messages. */
    String shown() {
        return Redaction.hide(uri, uri);
    }
}
