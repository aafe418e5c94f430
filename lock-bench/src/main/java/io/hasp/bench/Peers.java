package io.hasp.bench;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** How the benchmarks create the peer libraries' clients: their defaults, pointed at one server. */
public final class Peers {

    private Peers() {
    }

    /**
     * Creates a Redisson client for one server with Redisson's default settings (pool sizes, threads,
     * 30 s watchdog), as an application that switched from Redisson would have it.
     *
     * @param uri {@code redis://host:port}
     * @return a connected Redisson client; the caller shuts it down
     */
    public static RedissonClient redisson(String uri) {
        Config config = new Config();
        config.useSingleServer().setAddress(uri);
        return Redisson.create(config);
    }
}
