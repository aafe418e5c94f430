package io.hasp.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspConfig;
import io.hasp.internal.connection.ClientRig;
import io.hasp.internal.connection.RedisConnection;
import io.hasp.internal.pubsub.ChannelKind;
import io.hasp.internal.pubsub.DefaultPubSub;
import io.hasp.internal.pubsub.MessageListener;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.internal.topology.NodeConnections;
import io.hasp.testing.Conditions;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterPubSub} on a local cluster whose node carries this client's subscriptions and nothing else of it:
 * when that node dies, the subscriptions' own connection is what tells the client to look for the node's successor,
 * and they move there (the client reads the topology on no schedule of its own here). End to end, a client's
 * command connections to the node tell it too (ClusterFailoverIT); here only the subscriptions' can.
 */
class ClusterPubSubTest {

    private static final HaspConfig CONFIG = HaspConfig.builder().commandTimeout(Duration.ofSeconds(5))
            .connectTimeout(Duration.ofSeconds(2)).build();

    private RedisCluster cluster;
    private ClientRig rig;
    private NodeConnections nodes;
    private ClusterView view;
    private ClusterPubSub pubSub;

    @BeforeEach
    void start() {
        cluster = RedisCluster.start();
        rig = new ClientRig(CONFIG, 1);
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (pubSub != null) {
                pubSub.close().get(30, TimeUnit.SECONDS);
            }
            if (view != null) {
                view.close();
                nodes.close().get(30, TimeUnit.SECONDS);
            }
            rig.close();
        } finally {
            cluster.close();
        }
    }

    private static NodeAddress address(RedisServer node) {
        return new NodeAddress(node.host(), node.port());
    }

    private RedisServer server(NodeAddress address) {
        return cluster.nodes().stream().filter(node -> address(node).equals(address)).findFirst().orElseThrow();
    }

    private static long subscribers(RedisServer node, String channel) {
        try (RedisProbe probe = node.probe()) {
            return (Long) ((List<?>) probe.call("PUBSUB", "NUMSUB", channel)).get(1);
        }
    }

    private static String role(RedisServer node) {
        try (RedisProbe probe = node.probe()) {
            return String.valueOf(probe.call("INFO", "replication")).contains("role:master") ? "master" : "replica";
        }
    }

    /** Builds the client's cluster view from {@code seed} alone, and its pub/sub on that view. */
    private void connect(RedisServer seed) throws Exception {
        nodes = new NodeConnections(CONFIG, rig.transport, rig.timer);
        view = new ClusterView(nodes, List.of(address(seed)),
                ClusterView.discover(nodes, List.of(address(seed))).get(30, TimeUnit.SECONDS), rig.timer);
        EventLoop loop = (EventLoop) rig.transport.group().next();
        pubSub = new ClusterPubSub(view, (node, dropped) -> new DefaultPubSub(
                push -> new RedisConnection("pubsub", nodes.connector(node), loop, rig.timer, push),
                rig.timer, 5_000, ChannelKind.CLASSIC, dropped), rig.timer);
        view.onTopologyChange(pubSub::reroute);
        view.alsoReachable(pubSub::connected);
    }

    @Test
    void subscriptionsOnANodeThatDiesMoveToItsSuccessorWithoutACommandToTellIt() throws Exception {
        // Classic channels all live on one master, which the client picks from its topology (in the order the seed
        // lists it): the test looks where the subscription went (PUBSUB NUMSUB on every master).
        AtomicInteger resubscribed = new AtomicInteger();
        MessageListener listener = new MessageListener() {
            @Override
            public void onMessage(String channel, String message) {
            }

            @Override
            public void onResubscribed(String channel) {
                resubscribed.incrementAndGet();
            }
        };
        // Seeded with a replica: the client's only command connection goes there, and the master it picks for the
        // classic channels is another node.
        connect(cluster.replicas().get(0));
        pubSub.subscribe("unlocks", listener).get(30, TimeUnit.SECONDS);
        List<RedisServer> carriers = cluster.masters().stream().filter(m -> subscribers(m, "unlocks") > 0).toList();
        assertEquals(1, carriers.size(), "one master carries the subscription: " + carriers);
        RedisServer dying = carriers.get(0);
        assertFalse(nodes.isConnected(address(dying)), "no command connection reaches " + dying);

        RedisServer successor = cluster.replicas().get(cluster.masters().indexOf(dying));
        assertTrue(Conditions.await(Duration.ofSeconds(30), () -> {
            try (RedisProbe probe = successor.probe()) {
                return String.valueOf(probe.call("INFO", "replication")).contains("master_link_status:up");
            }
        }), successor + " copies " + dying + ", so that it can take over");
        dying.kill();
        assertTrue(Conditions.await(Duration.ofSeconds(30), () -> role(successor).equals("master")),
                successor + " took over from " + dying);
        assertTrue(Conditions.await(Duration.ofSeconds(30), () -> resubscribed.get() > 0),
                "the subscription moved once the client found the successor");
        assertTrue(cluster.nodes().stream().anyMatch(node -> node.isRunning() && subscribers(node, "unlocks") > 0),
                "it lives on a node that is up");
    }
}
