package io.hasp.bench.client;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.Script;
import io.hasp.testing.RedisServer;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import java.util.List;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One private redis-server and the two clients under comparison, shared by all benchmark
 * threads of a trial: hasp (default pool of 2 connections) and Lettuce 7 (one shared
 * connection, its recommended use), both speaking RESP2.
 */
@State(Scope.Benchmark)
public class Clients {

    /** The script both clients run: a lock-style read of the holder's TTL. */
    static final Script PTTL_SCRIPT = Script.of("bench-pttl", "return redis.call('PTTL', KEYS[1])");
    static final String KEY = "bench:key";
    static final List<String> KEYS = List.of(KEY);

    RedisServer server;
    HaspClient hasp;
    RedisClient lettuceClient;
    StatefulRedisConnection<String, String> lettuce;

    /** Starts the server and connects both clients. */
    @Setup(Level.Trial)
    public void start() {
        server = RedisServer.builder().name("client-bench").start();
        hasp = HaspClient.create(HaspConfig.builder().uri(server.uri()).build());
        lettuceClient = RedisClient.create(RedisURI.create(server.uri()));
        lettuceClient.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP2).build());
        lettuce = lettuceClient.connect();
        lettuce.sync().set(KEY, "a value of a typical size: 32 b");
        lettuce.sync().pexpire(KEY, 3_600_000);
        lettuce.sync().scriptLoad(PTTL_SCRIPT.text());
    }

    /** Closes the clients and stops the server. */
    @TearDown(Level.Trial)
    public void stop() {
        if (lettuce != null) {
            lettuce.close();
            lettuceClient.shutdown();
        }
        if (hasp != null) {
            hasp.close();
        }
        if (server != null) {
            server.stop();
        }
    }
}
