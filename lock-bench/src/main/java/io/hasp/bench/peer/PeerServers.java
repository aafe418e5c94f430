package io.hasp.bench.peer;

import io.hasp.bench.Measurement;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The peer servers of one run, on the runner's side: started before the first fork that needs them,
 * handed to the forks as {@code -D} options, stopped when the run ends. A server that cannot run here (no
 * MariaDB installed, say) makes its peers' measurements skipped, with the reason for the results table.
 */
public final class PeerServers implements AutoCloseable {

    private final Map<PeerServer.Kind, PeerServer> running = new EnumMap<>(PeerServer.Kind.class);
    private final Map<Peer, String> skipped = new EnumMap<>(Peer.class);

    private PeerServers() {
    }

    /**
     * Starts the servers the given measurements need.
     *
     * @param measurements the measurements of this run
     * @param logs the folder for the servers' logs
     * @param console where to say what started and what was skipped
     * @return the running servers
     */
    public static PeerServers startFor(Collection<Measurement> measurements, Path logs, PrintStream console) {
        Set<PeerServer.Kind> needed = EnumSet.noneOf(PeerServer.Kind.class);
        for (Measurement m : measurements) {
            peerOf(m).ifPresent(peer -> needed.add(peer.server()));
        }
        PeerServers servers = new PeerServers();
        for (PeerServer.Kind kind : needed) {
            try {
                PeerServer server = kind.start(logs);
                servers.running.put(kind, server);
                console.println("started " + kind.name().toLowerCase() + " at " + server.address() + " for the peer rows");
            } catch (PeerServer.Unavailable e) {
                console.println("skipping the " + kind.name().toLowerCase() + " rows: " + e.getMessage());
                for (Peer peer : Peer.values()) {
                    if (peer.server() == kind) {
                        servers.skipped.put(peer, e.getMessage());
                    }
                }
            }
        }
        return servers;
    }

    private static Optional<Peer> peerOf(Measurement m) {
        if (!m.benchmark().getPackageName().equals(Peer.class.getPackageName())) {
            return Optional.empty();
        }
        return Optional.of(Peer.ofMethod(m.method()));
    }

    /**
     * Returns whether a measurement is of a skipped peer.
     *
     * @param m a measurement
     * @return true when its server could not start
     */
    public boolean skips(Measurement m) {
        return peerOf(m).map(skipped::containsKey).orElse(false);
    }

    /**
     * Returns the peers whose servers run.
     *
     * @return those peers, in declaration order
     */
    public List<Peer> running() {
        List<Peer> peers = new ArrayList<>();
        for (Peer peer : Peer.values()) {
            if (running.containsKey(peer.server())) {
                peers.add(peer);
            }
        }
        return peers;
    }

    /**
     * Returns why each skipped peer was skipped.
     *
     * @return reasons by peer
     */
    public Map<Peer, String> skipped() {
        return Map.copyOf(skipped);
    }

    /**
     * Returns the {@code -D} options naming the running servers, plus quieter ZooKeeper and Curator logs.
     *
     * @return options for each fork
     */
    public List<String> forkArguments() {
        List<String> arguments = new ArrayList<>();
        running.forEach((kind, server) -> arguments.add("-D" + kind.property() + "=" + server.address()));
        if (running.containsKey(PeerServer.Kind.ZOOKEEPER)) {
            arguments.add("-Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=warn");
            arguments.add("-Dorg.slf4j.simpleLogger.log.org.apache.curator=warn");
        }
        return arguments;
    }

    /** Stops every server started. */
    @Override
    public void close() {
        running.values().forEach(PeerServer::close);
        running.clear();
    }
}
