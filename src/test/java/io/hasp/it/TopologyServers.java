package io.hasp.it;

import io.hasp.internal.cluster.ClusterSlot;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import java.util.List;

/**
 * The redis-server processes of one {@link Topology}, started for a test class (one server, a
 * cluster of 3 masters and 3 replicas, or a master with 2 replicas and 3 sentinels) and stopped
 * after it, with the direct views a test needs
 * whatever the topology: a command on the node that serves a key, the subscribers of a lock's
 * channel wherever clients put them, and a script flush everywhere.
 */
public final class TopologyServers implements AutoCloseable {

    private final Topology topology;
    private final RedisServer single;
    private final RedisCluster cluster;
    private final RedisSentinel sentinel;
    private final boolean shardedChannels;

    private TopologyServers(Topology topology, RedisServer single, RedisCluster cluster, RedisSentinel sentinel) {
        this.topology = topology;
        this.single = single;
        this.cluster = cluster;
        this.sentinel = sentinel;
        this.shardedChannels = cluster != null && !(call(cluster.masters().get(0), "PUBSUB", "SHARDNUMSUB", "0")
                instanceof RedisProbe.Error);
    }

    /** Starts the servers of {@code topology}. */
    public static TopologyServers start(Topology topology) {
        return switch (topology) {
            case SINGLE -> new TopologyServers(topology, RedisServer.start(), null, null);
            case CLUSTER -> new TopologyServers(topology, null, RedisCluster.start(), null);
            case SENTINEL -> new TopologyServers(topology, null, null, RedisSentinel.start());
        };
    }

    /**
     * Whether a publish counts every listener of its channel here: one server, Sentinel, or a cluster with sharded
     * channels (7.0+); where it does not (a 6.x cluster), the processes waiting for a lock take no turns.
     */
    public boolean publishCountsListeners() {
        return cluster == null || shardedChannels;
    }

    /** @return the topology */
    public Topology topology() {
        return topology;
    }

    /** @return the URI clients connect with: {@code redis://...}, {@code redis-cluster://...} or {@code redis-sentinel://...} */
    public String uri() {
        return single != null ? single.uri() : cluster != null ? cluster.uri() : sentinel.uri();
    }

    /** The one server of a single server, or the master the sentinels name now; null on a cluster. */
    private RedisServer master() {
        return single != null ? single : sentinel != null ? sentinel.master() : null;
    }

    /** Runs {@code command} on the node that serves {@code key} (the master of its slot on a cluster). */
    public Object call(String key, String... command) {
        return call(cluster == null ? master() : cluster.masterOf(ClusterSlot.of(key)), command);
    }

    /**
     * The subscribers of {@code channel}: on a cluster, sharded ones on the master of the channel's
     * slot where the cluster has sharded channels (7.0+), else classic ones summed over the masters.
     */
    public long subscribers(String channel) {
        if (cluster == null) {
            return count(call(master(), "PUBSUB", "NUMSUB", channel));
        }
        if (shardedChannels) {
            return count(call(cluster.masterOf(ClusterSlot.of(channel)), "PUBSUB", "SHARDNUMSUB", channel));
        }
        long total = 0;
        for (RedisServer master : cluster.masters()) {
            total += count(call(master, "PUBSUB", "NUMSUB", channel));
        }
        return total;
    }

    /** {@code SCRIPT FLUSH} on the server, or on every master of the cluster. */
    public void flushScripts() {
        for (RedisServer server : cluster == null ? List.of(master()) : cluster.masters()) {
            call(server, "SCRIPT", "FLUSH");
        }
    }

    @Override
    public void close() {
        if (single != null) {
            single.close();
        } else if (cluster != null) {
            cluster.close();
        } else {
            sentinel.close();
        }
    }

    @Override
    public String toString() {
        return topology + " " + uri();
    }

    private static long count(Object numsubReply) {
        return (Long) ((List<?>) numsubReply).get(1);
    }

    private static Object call(RedisServer server, String... command) {
        try (RedisProbe probe = server.probe()) {
            return probe.call(command);
        }
    }
}
