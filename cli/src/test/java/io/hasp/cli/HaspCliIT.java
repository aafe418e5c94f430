package io.hasp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.lock.FencedLock;
import io.hasp.lock.HaspLock;
import io.hasp.sync.HaspSemaphore;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisBinary;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.hasp.testing.TlsFiles;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command line as its users run it: {@code java -jar target/hasp-cli.jar ...} in a process of its own, against
 * real servers (one with a password, one serving TLS, a cluster). Each command's output, table and JSON, and exit
 * code; bad input, a refused connection and wrong credentials, with no password printed.
 */
class HaspCliIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String PASSWORD = "cli-secret-4711";

    private static RedisServer redis;
    private static HaspClient holder;
    private static RedisProbe probe;

    @BeforeAll
    static void start() {
        redis = RedisServer.builder().name("cli-it").option("requirepass", PASSWORD).start();
        holder = HaspClient.create(HaspConfig.builder().uri(uri()).clientName("orders-service").build());
        probe = RedisProbe.connect(redis.port());
        probe.call("AUTH", PASSWORD);
    }

    @AfterAll
    static void stop() {
        if (holder != null) {
            holder.close();
        }
        if (probe != null) {
            probe.close();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    private static String uri() {
        return "redis://:" + PASSWORD + "@127.0.0.1:" + redis.port();
    }

    /** What a run printed and how it ended. */
    record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    private static ProcessBuilder command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(Path.of("target", "hasp-cli.jar").toAbsolutePath().toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("HASP_URI");
        builder.environment().remove("HASP_PASSWORD");
        return builder;
    }

    private static Run run(String... args) throws Exception {
        return run(command(List.of(args)));
    }

    private static Run run(ProcessBuilder builder) throws Exception {
        Path out = Files.createTempFile("hasp-cli", ".out");
        Path err = Files.createTempFile("hasp-cli", ".err");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("hasp-cli " + builder.command() + " did not end within " + TIMEOUT);
            }
            return new Run(process.exitValue(), Files.readString(out).strip(), Files.readString(err).strip());
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void withoutACommandItPrintsUsageAndExitsWith2() throws Exception {
        Run help = run("--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().contains("force-unlock") && help.out().contains("Exit codes"), help.out());
        Run none = run();
        assertEquals(2, none.exitCode());
        assertTrue(none.err().contains("a command is needed"), none.err());
        Run unknown = run("inspect", "x", "--no-such-option");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("--no-such-option"), unknown.err());
    }

    @Test
    void inspectShowsTheHoldersAndTheirProcessAsATableAndAsJson() throws Exception {
        HaspLock lock = holder.getLock("cli:orders:42");
        lock.lock();
        lock.lock();
        try {
            Run table = run("inspect", "cli:orders:42", "--uri", uri());
            assertEquals(0, table.exitCode(), table.err());
            assertTrue(table.out().contains("REENTRANT, held"), table.out());
            String row = table.lines().stream().filter(line -> line.startsWith(holder.id())).findFirst()
                    .orElseThrow(() -> new AssertionError("no row of the holder in:\n" + table.out()));
            assertTrue(row.contains(" 2 ") && row.contains("EXCLUSIVE") && row.contains("orders-service on ")
                    && row.contains("pid " + ProcessHandle.current().pid()), row);

            Run json = run("inspect", "cli:orders:42", "--json", "--uri", uri());
            assertEquals(0, json.exitCode(), json.err());
            assertTrue(json.out().startsWith("{\"name\":\"cli:orders:42\",\"kind\":\"REENTRANT\",\"held\":true"), json.out());
            assertTrue(json.out().contains("\"holdCount\":2") && json.out().contains("\"application\":\"orders-service\""),
                    json.out());
            assertEquals(1, json.lines().size(), "one line of JSON");
        } finally {
            lock.unlock();
            lock.unlock();
        }
        Run free = run("inspect", "cli:orders:42", "--json", "--uri", uri());
        assertTrue(free.out().contains("\"kind\":\"NONE\",\"held\":false"), free.out());
    }

    @Test
    void locksListsTheMatchingLocksOnly() throws Exception {
        HaspLock one = holder.getLock("cli:list:1");
        FencedLock two = holder.getFencedLock("cli:list:2");
        one.lock();
        two.lock();
        try {
            Run table = run("locks", "cli:list:*", "--uri", uri());
            assertEquals(0, table.exitCode(), table.err());
            assertEquals(Set.of("cli:list:1", "cli:list:2"), new HashSet<>(table.lines()));
            Run json = run("locks", "cli:list:*", "--limit", "1", "--json", "--uri", uri());
            assertTrue(json.out().startsWith("{\"pattern\":\"cli:list:*\",\"limit\":1,\"names\":[\"cli:list:"), json.out());
            Run none = run("locks", "cli:nothing:*", "--uri", uri());
            assertEquals(0, none.exitCode());
            assertEquals("", none.out());
            Run badLimit = run("locks", "cli:list:*", "--limit", "0", "--uri", uri());
            assertEquals(2, badLimit.exitCode());
            assertTrue(badLimit.err().contains("limit"), badLimit.err());
        } finally {
            one.unlock();
            two.unlock();
        }
    }

    @Test
    void forceUnlockNeedsYesThenFreesTheLockAndNamesItsHolder() throws Exception {
        HaspLock lock = holder.getLock("cli:stuck");
        lock.lock();
        Run refused = run("force-unlock", "cli:stuck", "--uri", uri());
        assertEquals(2, refused.exitCode());
        assertTrue(refused.err().contains("--yes"), refused.err());
        assertEquals(1L, probe.call("EXISTS", "cli:stuck"), "nothing changed without --yes");

        Run freed = run("force-unlock", "cli:stuck", "--yes", "--uri", uri());
        assertEquals(0, freed.exitCode(), freed.err());
        assertTrue(freed.out().startsWith("freed cli:stuck, held by " + holder.id())
                && freed.out().contains("orders-service on "), freed.out());
        assertEquals(0L, probe.call("EXISTS", "cli:stuck"));

        Run again = run("force-unlock", "cli:stuck", "--yes", "--json", "--uri", uri());
        assertEquals("{\"name\":\"cli:stuck\",\"unlocked\":false,\"holders\":[]}", again.out());

        HaspSemaphore permits = holder.getSemaphore("cli:permits");
        permits.trySetPermits(4);
        Run notALock = run("force-unlock", "cli:permits", "--yes", "--uri", uri());
        assertEquals(2, notALock.exitCode());
        assertTrue(notALock.err().contains("not a lock"), notALock.err());
        assertEquals(4, permits.availablePermits());
    }

    @Test
    void watchPrintsALineEachTimeTheHoldersChange() throws Exception {
        Path out = Files.createTempFile("hasp-cli-watch", ".out");
        Process watch = command(List.of("watch", "cli:watched", "--interval", "50ms", "--changes", "3", "--uri", uri()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertTrue(Conditions.await(TIMEOUT, () -> lines(out).size() == 1), "the first state");
            assertTrue(lines(out).get(0).endsWith("cli:watched free; queued 0, waiting processes 0, listeners 0"),
                    lines(out).toString());
            HaspLock lock = holder.getLock("cli:watched");
            lock.lock();
            try {
                assertTrue(Conditions.await(TIMEOUT, () -> lines(out).size() == 2), "the holder came: " + lines(out));
                assertTrue(lines(out).get(1).contains("cli:watched held by " + holder.id()), lines(out).toString());
            } finally {
                lock.unlock();
            }
            assertTrue(watch.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "watch ends after 3 lines");
            assertEquals(0, watch.exitValue());
            assertEquals(3, lines(out).size(), lines(out).toString());
            assertTrue(lines(out).get(2).contains("cli:watched free"), lines(out).toString());
        } finally {
            watch.destroyForcibly().waitFor();
            Files.deleteIfExists(out);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(line -> !line.isBlank()).toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void badInputARefusedConnectionAndWrongCredentialsAreClearAndPrintNoPassword() throws Exception {
        Run badUri = run("inspect", "x", "--uri", "redis://:" + PASSWORD + "@127.0.0.1:notaport");
        assertEquals(2, badUri.exitCode());
        assertTrue(badUri.err().startsWith("hasp: uri: port"), badUri.err());

        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();   // free once closed: nothing listens there
        }
        Run refused = run("inspect", "x", "--timeout", "1s", "--uri", "redis://:" + PASSWORD + "@127.0.0.1:" + closed);
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().startsWith("hasp: cannot connect to redis://***@127.0.0.1:" + closed), refused.err());

        Run wrong = run("inspect", "x", "--uri", "redis://:not-the-password@127.0.0.1:" + redis.port());
        assertEquals(1, wrong.exitCode());
        assertTrue(wrong.err().contains("refused the credentials"), wrong.err());

        ProcessBuilder fromEnvironment = command(List.of("inspect", "x", "--uri", "redis://127.0.0.1:" + redis.port()));
        fromEnvironment.environment().put("HASP_PASSWORD", PASSWORD);
        Run viaEnvironment = run(fromEnvironment);
        assertEquals(0, viaEnvironment.exitCode(), viaEnvironment.err());

        for (Run run : List.of(badUri, refused, wrong, viaEnvironment)) {
            assertFalse((run.out() + run.err()).contains(PASSWORD), "a password printed: " + run);
            assertFalse((run.out() + run.err()).contains("not-the-password"), "a password printed: " + run);
        }
    }

    @Test
    void itReadsATlsServerWithItsCaFile() throws Exception {
        RedisBinary binary = RedisBinary.resolve();
        assumeTrue(binary.supportsTls(), () -> binary.describe() + " was built without TLS");
        TlsFiles files = TlsFiles.generate(Files.createDirectories(Path.of("target", "cli-tls").toAbsolutePath()));
        RedisServer tls = RedisServer.builder().name("cli-tls").tls(files).start();
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(tls.tlsUri()).caFile(files.caCertificate())
                .build())) {
            HaspLock lock = client.getLock("cli:tls");
            lock.lock();
            try {
                Run run = run("inspect", "cli:tls", "--json", "--uri", tls.tlsUri(), "--ca-file",
                        files.caCertificate().toString());
                assertEquals(0, run.exitCode(), run.err());
                assertTrue(run.out().contains("\"held\":true") && run.out().contains(client.id()), run.out());
            } finally {
                lock.unlock();
            }
        } finally {
            tls.stop();
        }
    }

    @Test
    void itListsTheLocksOfEveryMasterOfACluster() throws Exception {
        try (RedisCluster cluster = RedisCluster.start();
                HaspClient client = HaspClient.create(cluster.uri())) {
            List<HaspLock> locks = new ArrayList<>();
            Set<String> names = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                HaspLock lock = client.getLock("cli:cluster:" + i);
                lock.lock();
                locks.add(lock);
                names.add("cli:cluster:" + i);
            }
            try {
                Set<Integer> masters = new HashSet<>();
                for (String name : names) {
                    masters.add(cluster.masterOf(slot(client, name)).port());
                }
                assertTrue(masters.size() > 1, "the names spread over masters: " + masters);
                Run run = run("locks", "cli:cluster:*", "--uri", cluster.uri());
                assertEquals(0, run.exitCode(), run.err());
                assertEquals(names, new HashSet<>(run.lines()));
                Run inspect = run("inspect", "cli:cluster:7", "--json", "--uri", cluster.uri());
                assertTrue(inspect.out().contains("\"held\":true"), inspect.out());
            } finally {
                locks.forEach(HaspLock::unlock);
            }
        }
    }

    private static int slot(HaspClient client, String name) throws Exception {
        return ((Number) client.commands().execute(io.hasp.Replies.LONG, "CLUSTER", "KEYSLOT", name)
                .get(10, TimeUnit.SECONDS)).intValue();
    }
}
