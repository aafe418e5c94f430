package io.hasp.internal;

import io.hasp.HaspClient;
import io.hasp.internal.connection.DirectConnections;
import io.hasp.internal.lock.LockService;
import io.hasp.internal.pubsub.PubSub;
import io.netty.util.Timer;

/**
 * The parts of a {@link HaspClient} that hasp's own modules (the read/write lock, benchmarks) and
 * tests reach, without making them API: the client's lock service, pub/sub connection, timer and direct
 * connections.
 * {@code HaspClient} installs the one {@link Access} in its static initialiser, so any caller that
 * holds a client finds it installed. This package is not exported to users (see lock-core's
 * {@code module-info.java}).
 */
public final class ClientInternals {

    /** The client's side of the bridge; implemented once, inside {@code HaspClient}. */
    public interface Access {

        /** The client's lock service. */
        LockService lockService(HaspClient client);

        /** The client's pub/sub connection. */
        PubSub pubSub(HaspClient client);

        /** The client's timer. */
        Timer timer(HaspClient client);

        /** The client's direct connections, or {@code null} when it has none. */
        DirectConnections directConnections(HaspClient client);

        /** Whether the connection a command on {@code key} would take is known to be down now. */
        boolean knownDown(HaspClient client, String key);
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

    /** The pub/sub connection of {@code client}. */
    public static PubSub pubSub(HaspClient client) {
        return access(client).pubSub(client);
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
        return access(client).directConnections(client);
    }

    /**
     * Whether a command on {@code key} would wait for a reconnect: the client's connections to the server
     * that serves the key are all down now (lost and reconnecting), or on a cluster no master of the key's
     * slot is known. A snapshot: it is false while a connection is up, however slow the server behind it.
     */
    public static boolean knownDown(HaspClient client, String key) {
        return access(client).knownDown(client, key);
    }

    private static Access access(HaspClient client) {
        if (client == null) {
            throw new IllegalArgumentException("client: null (expected: a HaspClient)");
        }
        // An instance exists, so HaspClient's static initialiser has run and installed the bridge.
        return access;
    }
}
