package io.hasp.internal.sync;

import io.hasp.internal.topology.Topology;
import io.netty.util.Timer;

/**
 * What every synchronizer view of one name on one client has: the client's topology (where its scripts run), its
 * synchronizer waiters and timer, and the name, checked once.
 */
abstract class Synchronizer {

    final Topology topology;
    final PermitWaiters waiters;
    final Timer timer;
    final String name;

    /**
     * @param what the kind of synchronizer, for the message of a bad name (for example {@code "semaphore"})
     * @throws IllegalArgumentException when {@code name} is null or empty
     */
    Synchronizer(Topology topology, PermitWaiters waiters, Timer timer, String name, String what) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(what + " name: " + (name == null ? "null" : "empty")
                    + " (expected: the " + what + "'s Redis key)");
        }
        this.topology = topology;
        this.waiters = waiters;
        this.timer = timer;
        this.name = name;
    }

    /** The synchronizer's name, its Redis key. */
    public String getName() {
        return name;
    }
}
