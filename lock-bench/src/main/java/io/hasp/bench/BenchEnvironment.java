package io.hasp.bench;

import io.hasp.HaspClient;
import io.hasp.testing.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.api.RedissonClient;

/**
 * The Redis server and the three clients every benchmark compares: hasp, Redisson and Lettuce, all
 * connected to the same server with their default settings. Each client is created the first time a
 * benchmark asks for it (in its setup, never inside the measured loop), once per JMH fork, so a fork that
 * measures one library has no idle peer clients beside it.
 *
 * <p>The server is {@code -Dhasp.bench.redis=redis://host:port} when given (the {@link BenchRunner}
 * passes the one it started, so every fork and every library meets the same server); otherwise a private
 * redis-server started by the test fixture for this fork and stopped at its end.
 *
 * <p>Keys: every name handed out by {@link #key(String)} carries this fork's random prefix, so runs
 * never see each other's locks. Thread-safe after setup.
 *
 * <p>Run any benchmark that uses it, e.g.
 * {@code java -jar lock-bench/target/benchmarks.jar UncontendedLockBenchmark -f 1 -wi 1 -i 1 -w 1s -r 1s}
 */
@State(Scope.Benchmark)
public class BenchEnvironment {

    /** System property naming an existing server, {@code redis://host:port}. */
    public static final String REDIS_PROPERTY = "hasp.bench.redis";

    private final String prefix = "bench:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final AtomicInteger sequence = new AtomicInteger();
    private RedisServer server;
    private String uri;
    private HaspClient hasp;
    private RedissonClient redisson;
    private RedisClient lettuceClient;
    private StatefulRedisConnection<String, String> lettuce;

    /** Starts (or connects to) the server and creates the clients. */
    @Setup(Level.Trial)
    public void start() {
        String given = System.getProperty(REDIS_PROPERTY);
        if (given != null && !given.isBlank()) {
            uri = given;
        } else {
            server = RedisServer.start();
            uri = server.uri();
        }
    }

    /** Closes the clients, then stops the private server if this fork started one. */
    @TearDown(Level.Trial)
    public synchronized void stop() {
        if (hasp != null) {
            hasp.close();
        }
        if (lettuce != null) {
            lettuce.close();
        }
        if (lettuceClient != null) {
            lettuceClient.shutdown(Duration.ZERO, Duration.ofSeconds(5));
        }
        if (redisson != null) {
            redisson.shutdown(0, 5, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.stop();
        }
    }

    /**
     * Returns the server's URI.
     *
     * @return {@code redis://host:port}
     */
    public String uri() {
        return uri;
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
     * Returns the Redisson client (default settings, single server).
     *
     * @return the shared Redisson client
     */
    public synchronized RedissonClient redisson() {
        if (redisson == null) {
            redisson = Peers.redisson(uri);
        }
        return redisson;
    }

    /**
     * Returns the Lettuce connection (one multiplexed connection, thread-safe, as Lettuce recommends).
     *
     * @return the shared Lettuce connection
     */
    public synchronized StatefulRedisConnection<String, String> lettuce() {
        if (lettuce == null) {
            lettuceClient = RedisClient.create(uri);
            lettuce = lettuceClient.connect();
        }
        return lettuce;
    }

    /**
     * Returns a key name unique within this fork.
     *
     * @param role what the key is for, e.g. {@code "uncontended"}
     * @return {@code bench:<fork>:<role>:<n>}
     */
    public String key(String role) {
        return prefix + role + ":" + sequence.incrementAndGet();
    }
}
