package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The joints of lock-core's internal packages point one way, read from the main sources' imports:
 * the transport ({@code connection}) knows nothing above it, pub/sub builds on it, a {@code topology}
 * on both, the {@code cluster} is one topology, and the lock engine ({@code lock}) talks to whichever
 * topology the client holds without knowing the cluster. The top-level {@code io.hasp.internal}
 * utilities may be used by all; its {@code ClientInternals} bridge only by the packages above the engine.
 */
class PackageLayersTest {

    private static final Path SOURCES = Path.of("src/main/java/io/hasp/internal");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.hasp\\.internal\\.(?:([a-z]+)\\.)?([A-Z]\\w*)",
            Pattern.MULTILINE);
    /** The topology implementations: nothing outside their own packages may test for them. */
    private static final Pattern TOPOLOGY_TYPE_TEST = Pattern.compile(
            "instanceof\\s+(ClusterCommands|ClusterTopology|SingleServer|DefaultRedisCommands|NodeConnections)\\b|\\((ClusterCommands|ClusterTopology|SingleServer)\\)");

    /** What each internal package may import of the other internal packages ("" is the top-level utilities). */
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "connection", Set.of(""),
            "pubsub", Set.of("", "connection"),
            "topology", Set.of("", "connection", "pubsub"),
            "cluster", Set.of("", "connection", "pubsub", "topology"),
            "sentinel", Set.of("", "connection", "pubsub", "topology"),
            "lock", Set.of("", "connection", "pubsub", "topology"),
            "sync", Set.of("", "pubsub", "topology"));

    @Test
    void eachInternalPackageImportsOnlyTheLayersBelowIt() {
        List<String> violations = new ArrayList<>();
        for (Map.Entry<String, Set<String>> layer : ALLOWED.entrySet()) {
            for (Path file : javaFiles(SOURCES.resolve(layer.getKey()))) {
                Matcher m = IMPORT.matcher(read(file));
                while (m.find()) {
                    String target = m.group(1) == null ? "" : m.group(1);
                    boolean bridge = target.isEmpty() && m.group(2).equals("ClientInternals");
                    if (!target.equals(layer.getKey()) && (bridge || !layer.getValue().contains(target))) {
                        violations.add(SOURCES.relativize(file) + " imports io.hasp.internal."
                                + (target.isEmpty() ? "" : target + ".") + m.group(2));
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void onlyTheTopologiesKnowTheirOwnTypes() {
        Set<String> found = new TreeSet<>();
        for (Path file : javaFiles(SOURCES.getParent())) {
            String relative = SOURCES.getParent().relativize(file).toString();
            if (relative.startsWith("internal/cluster/") || relative.startsWith("internal/topology/")
                    || relative.startsWith("internal/sentinel/")) {
                continue;
            }
            if (TOPOLOGY_TYPE_TEST.matcher(read(file)).find()) {
                found.add(relative);
            }
        }
        assertEquals(Set.of(), found, "type tests or casts on a topology outside the topologies");
    }

    /**
     * Rooms stay small enough to walk through: no main source of lock-core over 500 lines, none of the
     * lock engine over 450 (a file that grows past them is a class doing two jobs).
     */
    @Test
    void noFileIsDoingTwoJobs() {
        List<String> tooLong = new ArrayList<>();
        for (Path file : javaFiles(SOURCES.getParent())) {
            int limit = file.startsWith(SOURCES.resolve("lock")) ? 450 : 500;
            long lines = read(file).lines().count();
            if (lines > limit) {
                tooLong.add(SOURCES.getParent().relativize(file) + ": " + lines + " lines (at most " + limit + ")");
            }
        }
        assertEquals(List.of(), tooLong);
    }

    @Test
    void theSourcesAreWhereThisTestLooks() {
        // Guards the two tests above against passing on an empty tree.
        assertTrue(javaFiles(SOURCES.resolve("lock")).size() > 10, "lock-core's sources under " + SOURCES.toAbsolutePath());
        assertTrue(javaFiles(SOURCES.resolve("cluster")).size() > 3);
    }

    private static List<Path> javaFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
