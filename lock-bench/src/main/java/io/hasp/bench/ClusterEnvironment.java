package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.testing.RedisCluster;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;

/**
 * A Redis Cluster for the cluster rows, with hasp and Redisson (cluster mode, default settings)
 * connected to it; each client is created when a benchmark first asks for it, so a fork that
 * measures one library has no idle peer.
 *
 * <p>The cluster is {@code -Dhasp.bench.cluster=redis-cluster://host:port,...} when given (the
 * {@link BenchRunner} passes the one it started, 3 masters and 3 replicas); otherwise this fork
 * starts its own with the test fixture and stops it at its end. Lock names carry this fork's
 * random prefix. Thread-safe after setup.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar ClusterLockBenchmark -f 1 -wi 1 -i 1 -w 1s -r 1s}
 */
@State(Scope.Benchmark)
public class ClusterEnvironment {

    /** System property naming an existing cluster, {@code redis-cluster://host:port,host:port}. */
    public static final String CLUSTER_PROPERTY = "hasp.bench.cluster";

    private final String prefix = "bench:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private RedisCluster cluster;
    private String uri;
    private HaspClient hasp;
    private RedissonClient redisson;

    /** Starts (or connects to) the cluster. */
    @Setup(Level.Trial)
    public void start() {
        String given = System.getProperty(CLUSTER_PROPERTY);
        if (given != null && !given.isBlank()) {
            uri = given;
        } else {
            cluster = RedisCluster.start();
            uri = cluster.uri();
        }
    }

    /** Closes the clients, then stops the cluster if this fork started one. */
    @TearDown(Level.Trial)
    public synchronized void stop() {
        if (hasp != null) {
            hasp.close();
        }
        if (redisson != null) {
            redisson.shutdown(0, 5, TimeUnit.SECONDS);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Returns the hasp client (default settings).
     *
     * @return the shared hasp client
     */
    public synchronized HaspClient hasp() {
        if (hasp == null) {
            hasp = HaspClient.create(uri);
        }
        return hasp;
    }

    /**
     * Returns the Redisson client in cluster mode (default settings), seeded with every node of the URI.
     *
     * @return the shared Redisson client
     */
    public synchronized RedissonClient redisson() {
        if (redisson == null) {
            Config config = new Config();
            ClusterServersConfig servers = config.useClusterServers();
            String seeds = uri.substring(uri.indexOf("://") + 3);
            for (String seed : seeds.split(",")) {
                servers.addNodeAddress("redis://" + seed);
            }
            redisson = Redisson.create(config);
        }
        return redisson;
    }

    /**
     * Returns a lock name unique within this fork.
     *
     * @param role what the name is for
     * @param n a number
     * @return {@code bench:<fork>:<role>:<n>}
     */
    public String key(String role, int n) {
        return prefix + role + ":" + n;
    }
}
