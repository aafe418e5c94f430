package io.hasp.bench.fleet;

import io.hasp.HaspClient;
import io.hasp.RedisCommands;
import io.hasp.lock.HaspLock;

/** The hasp side of a {@link FleetWorker}: one client per process, blocking lock() and GET/SET. */
final class HaspFleet implements FleetWorker.Fleet {

    private final HaspClient client;
    private final HaspLock lock;
    private final RedisCommands commands;
    private final String counterKey;

    private HaspFleet(HaspClient client, String lockName, String counterKey) {
        this.client = client;
        this.lock = client.getLock(lockName);
        this.commands = client.commands();
        this.counterKey = counterKey;
    }

    static HaspFleet open(String uri, String lockName, String counterKey) {
        return new HaspFleet(HaspClient.create(uri), lockName, counterKey);
    }

    @Override
    public void criticalSection() {
        lock.lock();
        try {
            String value = commands.get(counterKey).join();
            commands.set(counterKey, Long.toString(value == null ? 1 : Long.parseLong(value) + 1)).join();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
