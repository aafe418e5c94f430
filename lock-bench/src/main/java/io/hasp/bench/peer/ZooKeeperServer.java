package io.hasp.bench.peer;

import java.io.IOException;
import org.apache.curator.test.TestingServer;

/**
 * A single ZooKeeper server in the runner's JVM (curator-test's {@code TestingServer}) on a free loopback
 * port, with its data in a temporary folder deleted when it stops. The forks reach it over TCP like any
 * client. While the forks measure, the runner's JVM does nothing else.
 */
final class ZooKeeperServer implements PeerServer {

    private final TestingServer server;

    private ZooKeeperServer(TestingServer server) {
        this.server = server;
    }

    static ZooKeeperServer start() throws Unavailable {
        System.setProperty("zookeeper.admin.enableServer", "false");
        try {
            return new ZooKeeperServer(new TestingServer(PeerServer.freePort(), true));
        } catch (Exception e) {
            throw new Unavailable("ZooKeeper did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public String address() {
        return server.getConnectString();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            System.err.println("ZooKeeper did not stop cleanly: " + e.getMessage());
        }
    }
}
