package io.hasp.bench.peer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;

/**
 * One fleet process's critical section under a peer lock, for the cross-process rows: each thread its own
 * lock object (own session) on the fleet's name, and under it a GET then a SET of the fleet's counter in
 * Redis, exactly as hasp's and Redisson's fleets do, so the driver checks every library's counter alike.
 * The servers come from the same {@code -D} options the JMH forks get.
 */
public final class PeerFleet implements AutoCloseable {

    private final PeerEnvironment env = new PeerEnvironment();
    private final Peer peer;
    private final String lockName;
    private final String counterKey;
    private final RedisClient redis;
    private final StatefulRedisConnection<String, String> connection;
    private final ThreadLocal<PeerLock> locks;
    private final List<Exception> openFailures = new ArrayList<>();

    /**
     * Connects the counter's Redis; lock sessions open on each thread's first critical section.
     *
     * @param peer the peer lock
     * @param uri the counter's Redis
     * @param lockName the fleet's lock name
     * @param counterKey the fleet's counter
     */
    public PeerFleet(Peer peer, String uri, String lockName, String counterKey) {
        this.peer = peer;
        this.lockName = lockName;
        this.counterKey = counterKey;
        this.redis = RedisClient.create(uri);
        this.connection = redis.connect();
        this.locks = ThreadLocal.withInitial(this::openLock);
    }

    private PeerLock openLock() {
        try {
            return env.open(peer, lockName);
        } catch (Exception e) {
            throw new IllegalStateException(peer.label() + ": could not open a lock session", e);
        }
    }

    /**
     * Takes the lock, increments the counter with GET then SET, releases the lock.
     *
     * @throws Exception when a server fails
     */
    public void criticalSection() throws Exception {
        PeerLock lock = locks.get();
        lock.lock();
        try {
            RedisCommands<String, String> sync = connection.sync();
            String value = sync.get(counterKey);
            sync.set(counterKey, Long.toString(value == null ? 1 : Long.parseLong(value) + 1));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        env.close();
        connection.close();
        redis.shutdown();
    }
}
