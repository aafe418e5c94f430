package io.hasp.bench.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

/**
 * A server a peer lock lives on, started by the runner for one run and stopped after it, on a free
 * loopback port; never a server that happens to run on the machine. The forks find it through the system
 * property of its {@link Kind}.
 */
public interface PeerServer extends AutoCloseable {

    /** The servers the peers need, and how to start each one. */
    enum Kind {

        /** PostgreSQL from the binaries Maven Central ships ({@link PostgresServer}). */
        POSTGRES("hasp.bench.postgres"),

        /** MariaDB from {@code mariadbd} on the machine ({@link MariaDbServer}). */
        MARIADB("hasp.bench.mariadb"),

        /** ZooKeeper in the runner's JVM ({@link ZooKeeperServer}). */
        ZOOKEEPER("hasp.bench.zookeeper");

        private final String property;

        Kind(String property) {
            this.property = property;
        }

        /**
         * Returns the system property that hands the server's {@link PeerServer#address()} to the forks.
         *
         * @return e.g. {@code hasp.bench.postgres}
         */
        public String property() {
            return property;
        }

        /**
         * Starts a server of this kind.
         *
         * @param logs the folder its log goes to
         * @return the running server
         * @throws Unavailable when it cannot run on this machine (the peer's rows then say why)
         */
        public PeerServer start(Path logs) throws Unavailable {
            return switch (this) {
                case POSTGRES -> PostgresServer.start(logs);
                case MARIADB -> MariaDbServer.start(logs);
                case ZOOKEEPER -> ZooKeeperServer.start();
            };
        }
    }

    /** Why a peer's server cannot run here (e.g. no {@code mariadbd}); its rows are skipped and say so. */
    final class Unavailable extends Exception {

        private static final long serialVersionUID = 1L;

        /**
         * Creates the exception.
         *
         * @param reason what is missing or failed, for the results table
         */
        public Unavailable(String reason) {
            super(reason);
        }

        /**
         * Creates the exception with its cause.
         *
         * @param reason what failed
         * @param cause the failure
         */
        public Unavailable(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    /**
     * Returns what a fork connects with: a JDBC URL or a ZooKeeper connect string.
     *
     * @return the address
     */
    String address();

    /** Stops the server and deletes its files. */
    @Override
    void close();

    /**
     * Returns a loopback port nothing listens on now.
     *
     * @return the port
     */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
