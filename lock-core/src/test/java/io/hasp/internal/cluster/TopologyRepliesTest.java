package io.hasp.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.RedisProtocolException;
import io.hasp.RedisServerException;
import io.hasp.Replies;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.resp.RespArray;
import io.hasp.resp.RespBulkString;
import io.hasp.resp.RespInteger;
import io.hasp.resp.RespValue;
import io.hasp.testing.RedisCluster;
import io.hasp.testing.RedisServer;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The topology of a real local cluster (3 masters, 3 replicas), read from {@code CLUSTER SLOTS}
 * and, on 7.0+, {@code CLUSTER SHARDS}, in RESP2 and RESP3: every slot maps to the master the
 * fixture gave it, each master to its replica; malformed replies are protocol errors.
 */
class TopologyRepliesTest {

    private static RedisCluster cluster;

    @BeforeAll
    static void start() {
        cluster = RedisCluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static RespValue ask(HaspConfig.Protocol protocol, String subcommand) throws Exception {
        RedisServer node = cluster.masters().get(1);
        try (HaspClient client = HaspClient.create(HaspConfig.builder().uri(node.uri()).protocol(protocol).build())) {
            return client.commands().execute(Replies.VALUE, "CLUSTER", subcommand).get(10, TimeUnit.SECONDS);
        }
    }

    private static void assertTheFixturesTopology(SlotMap map) {
        assertEquals(RedisCluster.SLOTS, map.coveredSlots());
        assertEquals(3, map.masters().size());
        for (int slot = 0; slot < RedisCluster.SLOTS; slot++) {
            RedisServer expected = cluster.masterOf(slot);
            assertEquals(new NodeAddress(expected.host(), expected.port()), map.masterOf(slot), "slot " + slot);
        }
        for (int m = 0; m < 3; m++) {
            RedisServer master = cluster.masters().get(m);
            RedisServer replica = cluster.replicas().get(m);
            assertEquals(List.of(new NodeAddress(replica.host(), replica.port())),
                    map.replicasOf(new NodeAddress(master.host(), master.port())));
        }
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void clusterSlots(HaspConfig.Protocol protocol) throws Exception {
        assertTheFixturesTopology(TopologyReplies.fromSlots(ask(protocol, "SLOTS"), "127.0.0.1"));
    }

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void clusterShardsOnSevenAndAnErrorBefore(HaspConfig.Protocol protocol) throws Exception {
        if (cluster.masters().get(0).majorVersion() >= 7) {
            assertTheFixturesTopology(TopologyReplies.fromShards(ask(protocol, "SHARDS"), "127.0.0.1"));
        } else {
            ExecutionException e = assertThrows(ExecutionException.class, () -> ask(protocol, "SHARDS"));
            assertInstanceOf(RedisServerException.class, e.getCause(), "6.2 has no CLUSTER SHARDS: the caller falls back to SLOTS");
        }
    }

    @Test
    void aNodeWithoutAnAnnouncedAddressIsTheQueriedNode() {
        RespValue reply = RespArray.of(RespArray.of(new RespInteger(0), new RespInteger(16383),
                RespArray.of(RespBulkString.of(""), new RespInteger(7000), RespBulkString.of("id"))));
        assertEquals(new NodeAddress("seed.example", 7000), TopologyReplies.fromSlots(reply, "seed.example").masterOf(42));
    }

    @Test
    void malformedRepliesAreProtocolErrors() {
        RedisProtocolException notArray = assertThrows(RedisProtocolException.class,
                () -> TopologyReplies.fromSlots(new RespInteger(1), "h"));
        assertTrue(notArray.getMessage().contains("CLUSTER SLOTS reply"), notArray.getMessage());
        assertThrows(RedisProtocolException.class, () -> TopologyReplies.fromSlots(
                RespArray.of(RespArray.of(new RespInteger(0), new RespInteger(1))), "h"));
        assertThrows(IllegalArgumentException.class, () -> TopologyReplies.fromSlots(RespArray.of(RespArray.of(
                new RespInteger(0), new RespInteger(20000), RespArray.of(RespBulkString.of("h"), new RespInteger(1)))), "h"));
        assertThrows(RedisProtocolException.class, () -> TopologyReplies.fromShards(
                RespArray.of(RespArray.of(RespBulkString.of("slots"))), "h"));
    }
}
