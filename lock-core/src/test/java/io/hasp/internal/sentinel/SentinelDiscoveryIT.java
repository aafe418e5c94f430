package io.hasp.internal.sentinel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.internal.topology.NodeConnections;
import io.hasp.internal.connection.ClientRig;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.testing.RedisSentinel;
import io.hasp.testing.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Finding the master of a real Sentinel deployment (the fixture's: a master, 2 replicas, 3 sentinels):
 * the sentinels' answer checked with the data node's own ROLE, a sentinel that is down skipped, and a
 * failure that names every sentinel asked and its answer. The failover test runs last: it moves the master.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SentinelDiscoveryIT {

    private static RedisSentinel deployment;
    private ClientRig rig;
    private NodeConnections connections;

    @BeforeAll
    static void start() {
        deployment = RedisSentinel.start();
    }

    @AfterAll
    static void stop() {
        deployment.close();
    }

    @BeforeEach
    void connect() {
        HaspConfig config = HaspConfig.builder().commandTimeout(Duration.ofSeconds(2))
                .connectTimeout(Duration.ofSeconds(1)).build();
        rig = new ClientRig(config, 1);
        connections = new NodeConnections(config, rig.transport, rig.timer);
    }

    @AfterEach
    void close() throws Exception {
        connections.close().get(30, TimeUnit.SECONDS);
        rig.close();
    }

    /** The address of a fixture's server; shared with the other sentinel tests. */
    static NodeAddress address(RedisServer server) {
        return new NodeAddress(server.host(), server.port());
    }

    /** The addresses of {@code deployment}'s sentinels, in order. */
    static List<NodeAddress> sentinels(RedisSentinel deployment) {
        List<NodeAddress> addresses = new ArrayList<>();
        for (RedisServer sentinel : deployment.sentinels()) {
            addresses.add(address(sentinel));
        }
        return addresses;
    }

    private SentinelDiscovery discovery(List<NodeAddress> sentinels, String masterName) {
        return new SentinelDiscovery(sentinels, masterName, connections::of, connections::of);
    }

    private static RedisConnectionException failure(SentinelDiscovery discovery) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> discovery.master().get(30, TimeUnit.SECONDS));
        return assertInstanceOf(RedisConnectionException.class, e.getCause());
    }

    /** A loopback address where nothing listens (a port just freed). */
    static NodeAddress nobody() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new NodeAddress("127.0.0.1", socket.getLocalPort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @Order(1)
    void findsTheMasterTheSentinelsName() throws Exception {
        assertEquals(address(deployment.master()),
                discovery(sentinels(deployment), RedisSentinel.MASTER_NAME).master().get(30, TimeUnit.SECONDS));
    }

    @Test
    @Order(2)
    void aSentinelThatIsDownIsPassedOver() throws Exception {
        List<NodeAddress> sentinels = new ArrayList<>(List.of(nobody()));
        sentinels.addAll(sentinels(deployment));
        assertEquals(address(deployment.master()),
                discovery(sentinels, RedisSentinel.MASTER_NAME).master().get(30, TimeUnit.SECONDS));
    }

    @Test
    @Order(3)
    void aNameNoSentinelMonitorsFailsNamingEverySentinelAsked() {
        RedisConnectionException e = failure(discovery(sentinels(deployment), "orders-master"));
        for (NodeAddress sentinel : sentinels(deployment)) {
            assertTrue(e.getMessage().contains(sentinel + " does not monitor a master named 'orders-master'"),
                    e.getMessage());
        }
    }

    @Test
    @Order(4)
    void noSentinelUpFailsWithEachOnesCause() {
        NodeAddress first = nobody();
        NodeAddress second = nobody();
        RedisConnectionException e = failure(discovery(List.of(first, second), RedisSentinel.MASTER_NAME));
        assertTrue(e.getMessage().startsWith("no master 'mymaster' from the sentinels [" + first + ", " + second + "]"),
                e.getMessage());
        assertTrue(e.getMessage().contains(first + " ") && e.getMessage().contains(second + " "), e.getMessage());
    }

    @Test
    @Order(5)
    void aSentinelThatNamesAReplicaIsNotBelieved() throws Exception {
        RedisServer replica = deployment.replicas().get(0);
        // A sentinel told that the replica is the master of "stale": it answers with the replica.
        try (RedisServer stale = RedisServer.builder().name("stale-sentinel").sentinel()
                .option("sentinel", "monitor", "stale", replica.host(), Integer.toString(replica.port()), "1")
                .start()) {
            RedisConnectionException e = failure(discovery(List.of(address(stale)), "stale"));
            assertTrue(e.getMessage().contains("names " + address(replica) + ", which says it is slave"), e.getMessage());
        }
    }

    @Test
    @Order(6)
    void afterAFailoverTheNewMasterIsFound() throws Exception {
        NodeAddress before = address(deployment.master());
        RedisServer promoted = deployment.failover();
        NodeAddress found = discovery(sentinels(deployment), RedisSentinel.MASTER_NAME).master().get(30, TimeUnit.SECONDS);
        assertEquals(address(promoted), found);
        assertNotEquals(before, found);
    }
}
