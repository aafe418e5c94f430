package io.hasp.internal.cluster;

import io.hasp.RedisProtocolException;
import io.hasp.internal.topology.NodeAddress;
import io.hasp.resp.RespArray;
import io.hasp.resp.RespBulkString;
import io.hasp.resp.RespInteger;
import io.hasp.resp.RespMap;
import io.hasp.resp.RespSimpleString;
import io.hasp.resp.RespValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a cluster's topology from {@code CLUSTER SHARDS} (Redis 7.0+) or {@code CLUSTER SLOTS}
 * (every version with cluster support), in RESP2 or RESP3, into a {@link SlotMap}. A node that
 * announces no address ({@code ""} or {@code "?"}) is the node that answered, as the cluster
 * specification says; {@code queried} is that node's host. A reply of any other shape is a
 * {@link RedisProtocolException} that names what did not fit.
 */
public final class TopologyReplies {

    private TopologyReplies() {
    }

    /**
     * {@code CLUSTER SLOTS}: an array of {@code [from, to, master, replica...]} entries, each node
     * {@code [host, port, id, ...]}.
     */
    public static SlotMap fromSlots(RespValue reply, String queried) {
        SlotMap.Builder map = new SlotMap.Builder();
        for (RespValue entry : array(reply, "CLUSTER SLOTS reply")) {
            List<RespValue> fields = array(entry, "CLUSTER SLOTS entry");
            if (fields.size() < 3) {
                throw malformed("CLUSTER SLOTS entry with " + fields.size() + " fields (expected: from, to, master, replicas)");
            }
            int from = (int) integer(fields.get(0), "slot");
            int to = (int) integer(fields.get(1), "slot");
            NodeAddress master = node(array(fields.get(2), "CLUSTER SLOTS node"), queried);
            map.range(from, to, master);
            for (int i = 3; i < fields.size(); i++) {
                map.replica(master, node(array(fields.get(i), "CLUSTER SLOTS node"), queried));
            }
        }
        return map.build();
    }

    /**
     * {@code CLUSTER SHARDS}: an array of shards, each a map (a flat key/value array in RESP2) with
     * {@code slots} (pairs of from and to) and {@code nodes} (maps with {@code ip}, {@code endpoint},
     * {@code port}, {@code role} and {@code health}). Nodes whose health is not {@code online} are
     * skipped; a shard without an online master serves none of its slots.
     */
    public static SlotMap fromShards(RespValue reply, String queried) {
        SlotMap.Builder map = new SlotMap.Builder();
        for (RespValue shardValue : array(reply, "CLUSTER SHARDS reply")) {
            Map<String, RespValue> shard = map(shardValue, "CLUSTER SHARDS shard");
            List<RespValue> slots = array(require(shard, "slots"), "shard slots");
            NodeAddress master = null;
            List<NodeAddress> replicas = new ArrayList<>();
            for (RespValue nodeValue : array(require(shard, "nodes"), "shard nodes")) {
                Map<String, RespValue> node = map(nodeValue, "shard node");
                if (!"online".equals(text(node.get("health")))) {
                    continue;
                }
                String host = text(node.get("endpoint"));
                if (host == null || host.isEmpty() || host.equals("?")) {
                    host = text(node.get("ip"));
                }
                if (host == null || host.isEmpty() || host.equals("?")) {
                    host = queried;
                }
                RespValue port = node.containsKey("port") ? node.get("port") : node.get("tls-port");
                NodeAddress address = new NodeAddress(host, (int) integer(port, "node port"));
                if ("master".equals(text(node.get("role")))) {
                    master = address;
                } else {
                    replicas.add(address);
                }
            }
            if (master == null) {
                continue;
            }
            if (slots.size() % 2 != 0) {
                throw malformed("shard slots with " + slots.size() + " numbers (expected: pairs of from and to)");
            }
            for (int i = 0; i < slots.size(); i += 2) {
                map.range((int) integer(slots.get(i), "slot"), (int) integer(slots.get(i + 1), "slot"), master);
            }
            for (NodeAddress replica : replicas) {
                map.replica(master, replica);
            }
        }
        return map.build();
    }

    private static NodeAddress node(List<RespValue> fields, String queried) {
        if (fields.size() < 2) {
            throw malformed("CLUSTER SLOTS node with " + fields.size() + " fields (expected: host, port, ...)");
        }
        String host = text(fields.get(0));
        if (host == null || host.isEmpty() || host.equals("?")) {
            host = queried;
        }
        return new NodeAddress(host, (int) integer(fields.get(1), "node port"));
    }

    private static List<RespValue> array(RespValue value, String what) {
        if (value instanceof RespArray) {
            return ((RespArray) value).elements();
        }
        throw malformed(what + ": " + value + " (expected: an array)");
    }

    private static Map<String, RespValue> map(RespValue value, String what) {
        Map<String, RespValue> fields = new LinkedHashMap<>();
        if (value instanceof RespMap) {
            for (Map.Entry<RespValue, RespValue> entry : ((RespMap) value).entries().entrySet()) {
                fields.put(text(entry.getKey()), entry.getValue());
            }
            return fields;
        }
        List<RespValue> flat = array(value, what);
        if (flat.size() % 2 != 0) {
            throw malformed(what + " with " + flat.size() + " elements (expected: key/value pairs)");
        }
        for (int i = 0; i < flat.size(); i += 2) {
            fields.put(text(flat.get(i)), flat.get(i + 1));
        }
        return fields;
    }

    private static RespValue require(Map<String, RespValue> fields, String key) {
        RespValue value = fields.get(key);
        if (value == null) {
            throw malformed("no '" + key + "' in " + fields.keySet());
        }
        return value;
    }

    private static long integer(RespValue value, String what) {
        if (value instanceof RespInteger) {
            return ((RespInteger) value).value();
        }
        String text = text(value);
        if (text != null) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw malformed(what + ": " + value + " (expected: an integer)");
    }

    private static String text(RespValue value) {
        if (value instanceof RespBulkString) {
            return ((RespBulkString) value).asString();
        }
        if (value instanceof RespSimpleString) {
            return ((RespSimpleString) value).value();
        }
        return null;   // absent, nil, or not a string
    }

    private static RedisProtocolException malformed(String what) {
        return new RedisProtocolException("cluster topology: " + what, null);
    }
}
