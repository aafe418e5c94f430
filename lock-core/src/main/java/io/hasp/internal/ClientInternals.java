package io.hasp.internal;

import io.hasp.HaspClient;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.pubsub.PubSub;
import io.hasp.internal.topology.Topology;
import io.netty.util.Timer;

/**
 * The parts of a {@link HaspClient} that hasp's own modules (the read/write lock, benchmarks) and
 * tests reach, without making them API: the client's lock service, its topology (commands, pub/sub,
 * direct connections) and its timer.
 * {@code HaspClient} installs the one {@link Access} in its static initialiser, so any caller that
 * holds a client finds it installed. This package is not exported to users (see lock-core's
 * {@code module-info.java}).
 */
public final class ClientInternals {

    /** The client's side of the bridge; implemented once, inside {@code HaspClient}. */
    public interface Access {

        /** The client's lock service. */
        LockService lockService(HaspClient client);

        /** The client's topology. */
        Topology topology(HaspClient client);

        /** The client's timer. */
        Timer timer(HaspClient client);
    }

    private static volatile Access access;

    private ClientInternals() {
    }

    /**
     * Installs the bridge; called once by {@code HaspClient}'s static initialiser.
     *
     * @throws IllegalStateException when a bridge is installed already
     */
    public static synchronized void install(Access bridge) {
        if (access != null) {
            throw new IllegalStateException("ClientInternals: the HaspClient bridge is installed already");
        }
        access = bridge;
    }

    /** The lock service of {@code client}, shared by every kind of lock it hands out. */
    public static LockService lockService(HaspClient client) {
        return access(client).lockService(client);
    }

    /** Where {@code client}'s locks live: one server or a cluster. */
    public static Topology topology(HaspClient client) {
        return access(client).topology(client);
    }

    /** The pub/sub connection of {@code client}. */
    public static PubSub pubSub(HaspClient client) {
        return topology(client).pubSub();
    }

    /** The timer of {@code client}: one {@code HashedWheelTimer} for leases, waits and retries. */
    public static Timer timer(HaspClient client) {
        return access(client).timer(client);
    }

    /**
     * The direct connections of {@code client}'s blocking lock calls.
     *
     * @return {@code null} on a cluster, over TLS or a Unix socket, or when turned off
     */
    public static DirectConnections directConnections(HaspClient client) {
        return topology(client).direct();
    }

    /**
     * Whether a command on {@code key} would wait for a reconnect: the client's connections to the server
     * that serves the key are all down now (lost and reconnecting), or on a cluster no master of the key's
     * slot is known. A snapshot: it is false while a connection is up, however slow the server behind it.
     */
    public static boolean knownDown(HaspClient client, String key) {
        return topology(client).knownDown(key);
    }

    private static Access access(HaspClient client) {
        if (client == null) {
            throw new IllegalArgumentException("client: null (expected: a HaspClient)");
        }
        // An instance exists, so HaspClient's static initialiser has run and installed the bridge.
        return access;
    }
}
