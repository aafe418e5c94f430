package io.hasp.bench.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * File and process chores of the peer servers: finding a program, dropping root (PostgreSQL refuses to
 * run as root, and a benchmark machine often is root), reading a log's tail into an error, deleting a
 * server's folder.
 */
final class ServerFiles {

    /** The unprivileged account servers run as when the runner is root: {@code nobody}. */
    static final int NOBODY = 65534;

    private ServerFiles() {
    }

    /**
     * Returns whether this JVM runs as root.
     *
     * @return true for uid 0
     */
    static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Returns a command that runs as {@code nobody} when this JVM is root ({@code setpriv} replaces itself
     * with the command, so stopping the process stops the server), else the command itself.
     *
     * @param command the program and its arguments
     * @return the command to start
     * @throws PeerServer.Unavailable when root and {@code setpriv} is missing
     */
    static List<String> unprivileged(List<String> command) throws PeerServer.Unavailable {
        if (!isRoot()) {
            return command;
        }
        Path setpriv = find("setpriv").orElseThrow(() -> new PeerServer.Unavailable(
                "running as root, and setpriv (util-linux) is missing to run the server as nobody"));
        List<String> wrapped = new ArrayList<>(List.of(setpriv.toString(), "--reuid=" + NOBODY, "--regid=" + NOBODY,
                "--clear-groups", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * Creates an empty private folder for a server's data, owned by the account the server runs as.
     *
     * @param prefix the folder name's prefix
     * @return the folder
     */
    static Path dataFolder(String prefix) {
        try {
            Path folder = Files.createTempDirectory(prefix);
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
            if (isRoot()) {
                Files.setAttribute(folder, "unix:uid", NOBODY);
                Files.setAttribute(folder, "unix:gid", NOBODY);
            }
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Finds a program on the PATH, then in the sbin folders a non-root PATH leaves out.
     *
     * @param names the program's names, in order of preference
     * @return its path, if found
     */
    static Optional<Path> find(String... names) {
        List<String> folders = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        folders.addAll(List.of("/usr/sbin", "/usr/local/sbin", "/sbin"));
        for (String name : names) {
            for (String folder : folders) {
                if (!folder.isEmpty()) {
                    Path candidate = Path.of(folder, name);
                    if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                        return Optional.of(candidate);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Runs a command to its end (at most two minutes), its output going to a log.
     *
     * @param command the command
     * @param log the log file (appended)
     * @param what what the command does, for the error
     * @throws PeerServer.Unavailable when it fails or hangs
     */
    static void run(List<String> command, Path log, String what) throws PeerServer.Unavailable {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new PeerServer.Unavailable(what + " did not finish within 2 minutes; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new PeerServer.Unavailable(what + " failed with exit code " + process.exitValue() + ": "
                        + tail(log));
            }
        } catch (IOException e) {
            throw new PeerServer.Unavailable(what + " could not start: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PeerServer.Unavailable(what + " interrupted", e);
        }
    }

    /**
     * Waits up to a minute for a server just started to accept a JDBC connection, polling every 100 ms.
     *
     * @throws PeerServer.Unavailable when it exits or accepts none in time
     */
    static void awaitConnection(Process process, String url, Path log) throws PeerServer.Unavailable {
        long deadline = System.nanoTime() + 60_000_000_000L;
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new PeerServer.Unavailable("the server exited with code " + process.exitValue() + ": " + ServerFiles.tail(log));
            }
            try (Connection ignored = DriverManager.getConnection(url)) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PeerServer.Unavailable("interrupted while the server started", e);
            }
        }
        throw new PeerServer.Unavailable("the server accepted no connection within a minute (" + (last == null ? "" : last.getMessage())
                + "): " + ServerFiles.tail(log));
    }

    /**
     * Stops a server process: SIGTERM, then a kill after 30 s.
     *
     * @param process the server
     */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Returns the last lines of a log, for an error message.
     *
     * @param log the log file
     * @return up to its last 5 lines, joined
     */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * Deletes a folder and everything in it; what cannot be deleted is left.
     *
     * @param folder the folder
     */
    static void delete(Path folder) {
        if (folder == null || !Files.exists(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // a server still writing; the temp folder's cleaner takes the rest
                }
            });
        } catch (IOException ignored) {
            // as above
        }
    }
}
