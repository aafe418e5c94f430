package io.hasp.bench;

import io.hasp.bench.lock.ContendedLockBenchmark;
import io.hasp.bench.lock.TryLockFailBenchmark;
import io.hasp.bench.lock.UncontendedLockBenchmark;
import io.hasp.bench.peer.Peer;
import io.hasp.bench.peer.PeerContendedBenchmark;
import io.hasp.bench.peer.PeerTryLockFailBenchmark;
import io.hasp.bench.peer.PeerUncontendedBenchmark;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of hasp against the locks users pick instead. hasp's side is the watchdog lock of the main
 * table (a lock that never expires under a live holder, like a database session's or ZooKeeper's), so
 * those measurements are made once and shown in both tables.
 */
final class PeerRows {

    private PeerRows() {
    }

    static List<PeerRow> rows() {
        return List.of(
                row("Uncontended lock+unlock (pairs/s)", 1,
                        Catalog.m(UncontendedLockBenchmark.class, "haspWatchdog", 1), PeerUncontendedBenchmark.class, false),
                row("Uncontended lock+unlock (pairs/s)", 8,
                        Catalog.m(UncontendedLockBenchmark.class, "haspWatchdog", 8), PeerUncontendedBenchmark.class, false),
                row("Contended, one name (acquisitions/s)", 8,
                        new Measurement(ContendedLockBenchmark.class, "hasp", 8, true), PeerContendedBenchmark.class, true),
                row("Try-lock on a lock held elsewhere (failures/s)", 8,
                        Catalog.m(TryLockFailBenchmark.class, "hasp", 8), PeerTryLockFailBenchmark.class, false));
    }

    private static PeerRow row(String title, int threads, Measurement hasp, Class<?> peerBenchmark, boolean waitProfile) {
        Map<Peer, Measurement> peers = new EnumMap<>(Peer.class);
        for (Peer peer : Peer.values()) {
            peers.put(peer, new Measurement(peerBenchmark, peer.method(), threads, waitProfile));
        }
        return new PeerRow(title, threads, hasp, peers);
    }
}
