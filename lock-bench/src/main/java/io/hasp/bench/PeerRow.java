package io.hasp.bench;

import io.hasp.bench.peer.Peer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One line of the table of the locks users pick instead: the same work measured for hasp and for each
 * {@link Peer}.
 *
 * @param title what is measured, with its unit
 * @param threads the benchmark threads
 * @param hasp hasp's measurement (shared with the main table where the same row appears there)
 * @param peers each peer's measurement
 */
public record PeerRow(String title, int threads, Measurement hasp, Map<Peer, Measurement> peers) {

    /**
     * Returns every measurement of the row, hasp's first.
     *
     * @return the measurements
     */
    public List<Measurement> measurements() {
        List<Measurement> all = new ArrayList<>();
        all.add(hasp);
        all.addAll(peers.values());
        return all;
    }
}
