package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.ReplicaAcks;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A master with one replica, for the rows that show what a grant that survives a failover costs: hasp
 * without and with {@link ReplicaAcks} ({@link #ACKS}), and Redisson told about both nodes (its
 * master/replica mode, default settings, which follows each lock script with {@code WAIT}). Each client
 * is created when a benchmark first asks for it.
 *
 * <p>The nodes are {@code -Dhasp.bench.replica=redis://master-host:port,redis://replica-host:port} when
 * given (the {@link BenchRunner} passes the pair it started); otherwise this fork starts its own with the
 * test fixture and stops it at its end. Lock names carry this fork's random prefix. Thread-safe after setup.
 *
 * <p>Run: {@code java -jar lock-bench/target/benchmarks.jar ReplicaLockBenchmark -f 1 -wi 1 -i 1 -w 1s -r 1s}
 */
@State(Scope.Benchmark)
public class ReplicaEnvironment {

    /** System property naming an existing master and its replica, {@code redis://host:port,redis://host:port}. */
    public static final String REPLICA_PROPERTY = "hasp.bench.replica";

    /** What the acknowledged rows ask: one replica, within 100 ms. */
    public static final ReplicaAcks ACKS = ReplicaAcks.of(1, Duration.ofMillis(100));

    private final String prefix = "bench:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private RedisServer master;
    private RedisServer replica;
    private String masterUri;
    private String replicaUri;
    private HaspClient hasp;
    private HaspClient haspAcks;
    private RedissonClient redisson;

    /** Starts (or connects to) the master and its replica. */
    @Setup(Level.Trial)
    public void start() {
        String given = System.getProperty(REPLICA_PROPERTY);
        if (given != null && !given.isBlank()) {
            String[] nodes = given.split(",");
            masterUri = nodes[0];
            replicaUri = nodes[1];
        } else {
            RedisServer[] pair = startPair();
            master = pair[0];
            replica = pair[1];
            masterUri = master.uri();
            replicaUri = replica.uri();
        }
    }

    /**
     * Starts a master and a replica of it with the test fixture, and waits until the master counts the
     * replica in a {@code WAIT}.
     *
     * @return the master, then the replica
     */
    public static RedisServer[] startPair() {
        RedisServer master = RedisServer.builder().name("bench-master").start();
        RedisServer replica = RedisServer.builder().name("bench-replica")
                .option("replicaof", master.host(), Integer.toString(master.port())).start();
        try (RedisProbe probe = master.probe()) {
            if (!Conditions.await(Duration.ofSeconds(60),
                    () -> ((String) probe.call("INFO", "replication")).contains("state=online"))) {
                replica.close();
                master.close();
                throw new IllegalStateException("the replica did not come online within a minute");
            }
        }
        return new RedisServer[] {master, replica};
    }

    /** Closes the clients, then stops the nodes if this fork started them. */
    @TearDown(Level.Trial)
    public synchronized void stop() {
        if (hasp != null) {
            hasp.close();
        }
        if (haspAcks != null) {
            haspAcks.close();
        }
        if (redisson != null) {
            redisson.shutdown(0, 5, TimeUnit.SECONDS);
        }
        if (replica != null) {
            replica.close();
        }
        if (master != null) {
            master.close();
        }
    }

    /**
     * Returns the hasp client of the master, default settings (no acknowledgements).
     *
     * @return the shared client
     */
    public synchronized HaspClient hasp() {
        if (hasp == null) {
            hasp = HaspClient.create(masterUri);
        }
        return hasp;
    }

    /**
     * Returns the hasp client of the master with {@link #ACKS}.
     *
     * @return the shared client
     */
    public synchronized HaspClient haspAcks() {
        if (haspAcks == null) {
            haspAcks = HaspClient.create(HaspConfig.builder().uri(masterUri).replicaAcks(ACKS).build());
        }
        return haspAcks;
    }

    /**
     * Returns Redisson in master/replica mode (default settings), which waits for the replica after each
     * lock script.
     *
     * @return the shared client
     */
    public synchronized RedissonClient redisson() {
        if (redisson == null) {
            Config config = new Config();
            config.useMasterSlaveServers().setMasterAddress(masterUri).addSlaveAddress(replicaUri);
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
    public String key(String role, long n) {
        return prefix + role + ":" + n;
    }
}
