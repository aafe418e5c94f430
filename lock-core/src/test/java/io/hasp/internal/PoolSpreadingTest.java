package io.hasp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hasp.HaspClient;
import io.hasp.HaspConfig;
import io.hasp.Replies;
import io.hasp.testing.RedisServer;
import io.hasp.testing.WithRedisServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pool of three multiplexed connections carries the commands of every caller, spread over all
 * three, and pub/sub has a connection of its own besides them. Each command connection is known
 * by the {@code CLIENT ID} the server answers on it (works on Redis 6.2 and 7); the connections
 * are found in {@code CLIENT LIST} by the client name.
 */
@WithRedisServer
class PoolSpreadingTest {

    private static final int COMMANDS = 600;

    @ParameterizedTest
    @EnumSource(HaspConfig.Protocol.class)
    void commandsSpreadOverThePoolAndPubSubHasItsOwnConnection(HaspConfig.Protocol protocol, RedisServer redis)
            throws Exception {
        String name = "hasp-pool-" + protocol;
        HaspConfig config = HaspConfig.builder().uri(redis.uri()).protocol(protocol).poolSize(3).clientName(name).build();
        try (HaspClient client = HaspClient.create(config)) {
            List<CompletableFuture<Long>> ids = new ArrayList<>(COMMANDS);
            for (int i = 0; i < COMMANDS; i++) {
                ids.add(client.commands().execute(Replies.LONG, "CLIENT", "ID"));
            }
            Map<Long, Integer> perConnection = new HashMap<>();
            for (CompletableFuture<Long> id : ids) {
                perConnection.merge(id.get(30, TimeUnit.SECONDS), 1, Integer::sum);
            }
            assertEquals(3, perConnection.size(), "connections that answered: " + perConnection);
            for (Map.Entry<Long, Integer> e : perConnection.entrySet()) {
                assertTrue(e.getValue() >= COMMANDS / 10,
                        "connection " + e.getKey() + " carried " + e.getValue() + " of " + COMMANDS + " commands: " + perConnection);
            }

            ClientInternals.pubSub(client).subscribe("pool-spreading", (channel, message) -> { }).get(30, TimeUnit.SECONDS);
            String list = client.commands().execute(Replies.STRING, "CLIENT", "LIST").get(30, TimeUnit.SECONDS);
            List<String> ours = new ArrayList<>();
            for (String line : list.split("\n")) {
                if (line.contains(" name=" + name + " ")) {
                    ours.add(line.trim());
                }
            }
            assertEquals(4, ours.size(), "3 command connections and 1 pub/sub connection:\n" + String.join("\n", ours));
            List<String> others = new ArrayList<>();
            for (String line : ours) {
                long id = Long.parseLong(field(line, "id"));
                if (!perConnection.containsKey(id)) {
                    others.add(line);
                } else {
                    assertEquals("0", field(line, "sub"), "a command connection has no subscription: " + line);
                }
            }
            assertEquals(1, others.size(), "one connection besides the pool's: " + others);
            assertEquals("1", field(others.get(0), "sub"), "it holds the subscription: " + others.get(0));
        }
    }

    private static String field(String clientListLine, String key) {
        for (String part : clientListLine.split(" ")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        throw new AssertionError("no " + key + "= in " + clientListLine);
    }
}
