package io.hasp.bench.peer;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A private MariaDB server for one benchmark run, from the {@code mariadbd} (or {@code mysqld}) and
 * {@code mariadb-install-db} (or {@code mysql_install_db}) found on the machine: a new data folder, a free
 * loopback port, its own socket, no option files read ({@code --no-defaults}), InnoDB at its default
 * durability (every commit flushed). Maven Central ships no MariaDB server, so where none is installed the
 * MariaDB rows say so and are skipped.
 */
final class MariaDbServer implements PeerServer {

    private final Process process;
    private final Path data;
    private final String url;

    private MariaDbServer(Process process, Path data, String url) {
        this.process = process;
        this.data = data;
        this.url = url;
    }

    static MariaDbServer start(Path logs) throws Unavailable {
        Path server = ServerFiles.find("mariadbd", "mysqld")
                .orElseThrow(() -> new Unavailable("no mariadbd on the PATH"));
        Path install = ServerFiles.find("mariadb-install-db", "mysql_install_db")
                .orElseThrow(() -> new Unavailable("no mariadb-install-db on the PATH"));
        Path folder = ServerFiles.dataFolder("hasp-bench-mariadb-");
        Path log = logs.resolve("mariadb.log");
        List<String> asUser = ServerFiles.isRoot() ? List.of("--user=root") : List.of();
        Process process = null;
        try {
            List<String> installCommand = new ArrayList<>(List.of(install.toString(), "--no-defaults",
                    "--datadir=" + folder.resolve("data"), "--auth-root-authentication-method=normal", "--skip-test-db"));
            installCommand.addAll(asUser);
            ServerFiles.run(installCommand, log, "mariadb-install-db");
            int port = PeerServer.freePort();
            List<String> command = new ArrayList<>(List.of(server.toString(), "--no-defaults",
                    "--datadir=" + folder.resolve("data"), "--port=" + port, "--bind-address=127.0.0.1",
                    "--socket=" + folder.resolve("socket"), "--pid-file=" + folder.resolve("pid"),
                    "--skip-name-resolve", "--max-connections=200", "--log-error=" + log));
            command.addAll(asUser);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            String admin = "jdbc:mariadb://127.0.0.1:" + port + "/?user=root";
            ServerFiles.awaitConnection(process, admin, log);
            try (Connection connection = DriverManager.getConnection(admin);
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS bench");
            }
            return new MariaDbServer(process, folder, "jdbc:mariadb://127.0.0.1:" + port + "/bench?user=root");
        } catch (IOException | SQLException | Unavailable | RuntimeException e) {
            if (process != null) {
                ServerFiles.stop(process);
            }
            ServerFiles.delete(folder);
            throw e instanceof Unavailable u ? u : new Unavailable("MariaDB did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public String address() {
        return url;
    }

    @Override
    public void close() {
        ServerFiles.stop(process);
        ServerFiles.delete(data);
    }
}
