package io.hasp.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.RedisConnectionException;
import io.hasp.Replies;
import io.hasp.Script;
import io.hasp.internal.connection.ClientRig;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
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
import org.junit.jupiter.api.Test;

/**
 * Routing on the local cluster: keys and scripts reach their slot's master; a slot moved behind
 * the client's back is followed through MOVED (and remembered), a key in a migrating slot through
 * ASK (and not remembered); the topology comes from the first seed that answers.
 */
class ClusterCommandsTest {

    private static final Script ECHO_KEY = Script.of("echo_key", "return redis.call('get', KEYS[1])");

    private static RedisCluster cluster;
    private ClientRig rig;
    private NodeConnections nodes;
    private ClusterView view;
    private ClusterCommands commands;

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @BeforeEach
    void connect() throws Exception {
        HaspConfig config = HaspConfig.builder().commandTimeout(Duration.ofSeconds(5)).connectTimeout(Duration.ofSeconds(2)).build();
        rig = new ClientRig(config, 2);
        nodes = new NodeConnections(config, rig.transport, rig.timer);
        SlotMap map = ClusterView.discover(nodes, seeds()).get(30, TimeUnit.SECONDS);
        view = new ClusterView(nodes, seeds(), map, rig.timer);
        commands = new ClusterCommands(nodes, view, rig.timer, 5_000);
    }

    @AfterEach
    void close() throws Exception {
        view.close();
        nodes.close().get(30, TimeUnit.SECONDS);
        rig.close();
    }

    private static List<NodeAddress> seeds() {
        List<NodeAddress> seeds = new ArrayList<>();
        for (RedisServer master : cluster.masters()) {
            seeds.add(address(master));
        }
        return seeds;
    }

    private static NodeAddress address(RedisServer node) {
        return new NodeAddress(node.host(), node.port());
    }

    private static RedisServer ownerInRedis(String key) {
        for (RedisServer master : cluster.masters()) {
            try (RedisProbe probe = master.probe()) {
                if (Long.valueOf(1).equals(probe.call("EXISTS", key))) {   // the other masters answer MOVED
                    return master;
                }
            }
        }
        return null;
    }

    @Test
    void keysAndScriptsReachTheirSlotsMaster() throws Exception {
        for (int i = 0; i < 300; i++) {
            String key = "route:" + i;
            assertEquals("OK", commands.set(key, "v" + i).get(10, TimeUnit.SECONDS));
        }
        for (int i = 0; i < 300; i++) {
            String key = "route:" + i;
            assertEquals("v" + i, commands.get(key).get(10, TimeUnit.SECONDS));
            assertEquals("v" + i, commands.evalsha(ECHO_KEY, Replies.STRING, List.of(key)).get(10, TimeUnit.SECONDS));
            assertEquals(address(ownerInRedis(key)), view.map().masterOf(ClusterSlot.of(key)), key);
        }
        assertEquals(300L, commands.del(java.util.stream.IntStream.range(0, 300).mapToObj(i -> "route:" + i)
                .toArray(String[]::new)).get(10, TimeUnit.SECONDS), "one DEL per slot, summed");
        assertThrows(IllegalArgumentException.class,
                () -> commands.evalsha(ECHO_KEY, Replies.STRING, List.of("a", "b")), "keys in two slots");
        assertEquals("PONG", commands.ping().get(10, TimeUnit.SECONDS));
    }

    @Test
    void aMovedSlotIsFollowedAndRemembered() throws Exception {
        String key = "{moved}:k";
        int slot = ClusterSlot.of(key);
        RedisServer from = cluster.masterOf(slot);
        RedisServer to = cluster.masters().get((cluster.masters().indexOf(from) + 1) % 3);
        assertEquals("OK", commands.set(key, "here").get(10, TimeUnit.SECONDS));
        migrate(slot, from, to, key, /* finish= */ true);
        assertEquals("here", commands.get(key).get(10, TimeUnit.SECONDS), "MOVED followed");
        assertEquals(address(to), view.map().masterOf(slot), "the new master is remembered");
        assertEquals("here", commands.evalsha(ECHO_KEY, Replies.STRING, List.of(key)).get(10, TimeUnit.SECONDS));
    }

    @Test
    void aKeyInAMigratingSlotIsAskedForWithoutChangingTheMap() throws Exception {
        String key = "{asked}:k";
        int slot = ClusterSlot.of(key);
        RedisServer from = cluster.masterOf(slot);
        RedisServer to = cluster.masters().get((cluster.masters().indexOf(from) + 1) % 3);
        assertEquals("OK", commands.set(key, "there").get(10, TimeUnit.SECONDS));
        migrate(slot, from, to, key, /* finish= */ false);
        try {
            assertEquals("there", commands.get(key).get(10, TimeUnit.SECONDS), "ASK followed");
            assertEquals(address(from), view.map().masterOf(slot), "ASK does not move the slot");
        } finally {
            finishMigration(slot, to);
        }
        assertEquals("there", commands.get(key).get(10, TimeUnit.SECONDS), "then MOVED");
        assertEquals(address(to), view.map().masterOf(slot));
    }

    @Test
    void aMovedReadsTheWholeTopologyAgain() throws Exception {
        String first = "{refresh-a}:k";
        String second = "{refresh-b}:k";
        for (String key : List.of(first, second)) {
            int slot = ClusterSlot.of(key);
            RedisServer from = cluster.masterOf(slot);
            RedisServer to = cluster.masters().get((cluster.masters().indexOf(from) + 1) % 3);
            assertEquals("OK", commands.set(key, "v").get(10, TimeUnit.SECONDS));
            migrate(slot, from, to, key, /* finish= */ true);
        }
        int secondSlot = ClusterSlot.of(second);
        NodeAddress secondOwner = address(ownerInRedis(second));
        assertEquals("v", commands.get(first).get(10, TimeUnit.SECONDS), "MOVED followed for the first key");
        awaitMaster(secondSlot, secondOwner, "the second key's slot learnt from the refresh, without a command on it");
    }

    @Test
    void aSlotMovedWithoutAnyCommandIsLearntByThePeriodicRefresh() throws Exception {
        java.util.concurrent.atomic.AtomicInteger mastersMoved = new java.util.concurrent.atomic.AtomicInteger();
        view.onMastersMoved(mastersMoved::incrementAndGet);
        view.refreshEvery(100);
        Conditions.await(Duration.ofSeconds(2), () -> view.refreshes() >= 2);
        assertEquals(0, mastersMoved.get(), "refreshes that find the same masters tell no one");
        String key = "{periodic}:k";
        int slot = ClusterSlot.of(key);
        RedisServer from = cluster.masterOf(slot);
        RedisServer to = cluster.masters().get((cluster.masters().indexOf(from) + 1) % 3);
        assertEquals("OK", commands.set(key, "v").get(10, TimeUnit.SECONDS));
        migrate(slot, from, to, key, /* finish= */ true);
        awaitMaster(slot, address(to), "the periodic refresh");
        // The map is replaced before the listeners run: wait for the listener, not only for the map.
        assertTrue(Conditions.await(Duration.ofSeconds(10), () -> mastersMoved.get() >= 1),
                "the lock engine is told that a slot has another master");
    }

    private void awaitMaster(int slot, NodeAddress expected, String what) {
        // The refresh runs on the client's threads and announces nothing: poll the map.
        Conditions.await(Duration.ofSeconds(20), () -> expected.equals(view.map().masterOf(slot)));
        assertEquals(expected, view.map().masterOf(slot), what);
    }

    /**
     * A node that dies and leaves the topology is not reconnected to for ever: its connection is closed once
     * the topology no longer names it, and a command that waited on it for a reconnect is sent to the
     * slot's master instead of failing.
     */
    @Test
    void aLostNodeThatLeftTheTopologyIsClosedAndWhatWaitedOnItGoesToTheSlotsMaster() throws Exception {
        String key = "{retired}:k";
        int slot = ClusterSlot.of(key);
        assertEquals("OK", commands.set(key, "kept").get(10, TimeUnit.SECONDS));
        SlotMap real = view.map();
        try (RedisServer gone = RedisServer.builder().name("gone-node").start()) {
            NodeAddress goneAddress = address(gone);
            // A router that knows only the doomed node, as the master of the key's slot, and no seed: while
            // it is down no topology read can replace that (a real one would, and race this test).
            ClusterView routerView = new ClusterView(nodes, List.of(), SlotMap.empty().withMaster(slot, goneAddress),
                    rig.timer);
            ClusterCommands router = new ClusterCommands(nodes, routerView, rig.timer, 5_000);
            try {
                assertEquals("PONG", nodes.of(goneAddress).ping().get(10, TimeUnit.SECONDS), "connected once");
                gone.kill();
                assertTrue(Conditions.await(Duration.ofSeconds(10), () -> nodes.isDown(goneAddress)),
                        "the client saw it go, and keeps reconnecting to a master of its topology");
                var waiting = router.get(key);   // waits on the dead node's connection for a reconnect
                assertFalse(waiting.isDone());
                routerView.update(real);   // the slot has another master now, and the dead node is in no slot
                assertEquals("kept", waiting.get(10, TimeUnit.SECONDS), "sent on to the slot's master, not failed");
                assertTrue(Conditions.await(Duration.ofSeconds(10), () -> !nodes.known().contains(goneAddress)),
                        "the dead node's connection is closed: " + nodes.known());
            } finally {
                routerView.close();
            }
        }
    }

    @Test
    void theTopologyComesFromTheFirstSeedThatAnswers() throws Exception {
        int dead;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            dead = free.getLocalPort();
        }
        List<NodeAddress> seeds = new ArrayList<>(List.of(new NodeAddress("127.0.0.1", dead)));
        seeds.add(address(cluster.masters().get(2)));
        assertEquals(RedisCluster.SLOTS, ClusterView.discover(nodes, seeds).get(30, TimeUnit.SECONDS).coveredSlots());
        ExecutionException none = assertThrows(ExecutionException.class,
                () -> ClusterView.discover(nodes, List.of(new NodeAddress("127.0.0.1", dead))).get(30, TimeUnit.SECONDS));
        RedisConnectionException e = assertInstanceOf(RedisConnectionException.class, none.getCause());
        assertTrue(e.getMessage().contains("no cluster topology from any seed: 127.0.0.1:" + dead), e.getMessage());
    }

    /** Moves {@code key} of {@code slot} from one master to another; {@code finish} hands the slot over too. */
    private static void migrate(int slot, RedisServer from, RedisServer to, String key, boolean finish) {
        String fromId = RedisCluster.nodeId(from);
        String toId = RedisCluster.nodeId(to);
        try (RedisProbe target = to.probe(); RedisProbe source = from.probe()) {
            assertEquals("OK", target.call("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", fromId));
            assertEquals("OK", source.call("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", toId));
            assertEquals("OK", source.call("MIGRATE", to.host(), Integer.toString(to.port()), key, "0", "5000"));
        }
        if (finish) {
            finishMigration(slot, to);
        }
    }

    private static void finishMigration(int slot, RedisServer to) {
        String toId = RedisCluster.nodeId(to);
        for (RedisServer master : cluster.masters()) {
            try (RedisProbe probe = master.probe()) {
                assertEquals("OK", probe.call("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", toId));
            }
        }
    }
}
