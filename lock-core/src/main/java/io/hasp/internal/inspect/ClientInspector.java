package io.hasp.internal.inspect;

import io.hasp.inspect.HeldLock;
import io.hasp.inspect.LockInfo;
import io.hasp.inspect.LockInspector;
import io.hasp.internal.Futures;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.topology.Topology;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The {@link LockInspector} of one client: its topology's commands and its lock service's records. */
public final class ClientInspector implements LockInspector {

    private final Topology topology;
    private final LockService locks;

    /**
     * @param topology the client's servers
     * @param locks the client's lock service, whose holds {@link #holds()} lists
     */
    public ClientInspector(Topology topology, LockService locks) {
        this.topology = topology;
        this.locks = locks;
    }

    @Override
    public LockInfo inspect(String name) {
        return Futures.await(inspectAsync(name));
    }

    @Override
    public CompletableFuture<LockInfo> inspectAsync(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("name: " + (name == null ? "null" : "\"\"") + " (expected: a lock name)");
        }
        return LockReader.read(topology.commands(), name);
    }

    @Override
    public List<String> locks(String pattern, int limit) {
        return Futures.await(locksAsync(pattern, limit));
    }

    @Override
    public CompletableFuture<List<String>> locksAsync(String pattern, int limit) {
        if (pattern == null || pattern.isEmpty()) {
            throw new IllegalArgumentException("pattern: " + (pattern == null ? "null" : "\"\"")
                    + " (expected: a glob such as \"orders:*\")");
        }
        if (limit < 1 || limit > LockLister.MAX_LIMIT) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: 1.." + LockLister.MAX_LIMIT + ")");
        }
        return LockLister.list(topology.masterCommands(), pattern, limit);
    }

    @Override
    public List<HeldLock> holds() {
        return locks.holds();
    }
}
