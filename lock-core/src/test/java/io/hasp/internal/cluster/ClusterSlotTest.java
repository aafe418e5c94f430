package io.hasp.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hasp.testing.RedisProbe;
import io.hasp.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Slots as the Redis Cluster specification defines them: its CRC16 check value and hash-tag
 * examples, then 2,000 keys (random bytes, tags, UTF-8) compared with {@code CLUSTER KEYSLOT} of a
 * real cluster-enabled redis-server.
 */
class ClusterSlotTest {

    @Test
    void theSpecificationsCheckValue() {
        byte[] digits = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x31C3, ClusterSlot.crc16(digits, 0, digits.length));
        assertEquals(0x31C3 & 16383, ClusterSlot.of("123456789"));
    }

    @Test
    void theSpecificationsHashTagExamples() {
        assertEquals(ClusterSlot.of("user1000"), ClusterSlot.of("{user1000}.following"));
        assertEquals(ClusterSlot.of("user1000"), ClusterSlot.of("{user1000}.followers"));
        assertEquals(ClusterSlot.of("bar"), ClusterSlot.of("foo{bar}{zap}"), "the first tag only");
        assertEquals(ClusterSlot.of("{bar"), ClusterSlot.of("foo{{bar}}zap"), "from the first '{' to the first '}'");
        byte[] whole = "foo{}{bar}".getBytes(StandardCharsets.US_ASCII);
        assertEquals(ClusterSlot.crc16(whole, 0, whole.length) & 16383, ClusterSlot.of("foo{}{bar}"), "an empty tag: the whole key");
        assertEquals(ClusterSlot.of("orders"), ClusterSlot.of("redisson_lock__channel:{orders}"), "a lock's keys share its slot");
    }

    @Test
    void agreesWithClusterKeyslot() {
        try (RedisServer server = RedisServer.builder().name("keyslot").option("cluster-enabled", "yes").start();
                RedisProbe probe = server.probe()) {
            SplittableRandom random = new SplittableRandom(20261124);
            String[] shapes = {"", "{", "}", "{}", "ä", "锁", ":", "x"};
            for (int i = 0; i < 2_000; i++) {
                StringBuilder key = new StringBuilder();
                int parts = 1 + random.nextInt(6);
                for (int p = 0; p < parts; p++) {
                    key.append(random.nextBoolean() ? shapes[random.nextInt(shapes.length)] : Integer.toString(random.nextInt(1000), 36));
                }
                String k = key.length() == 0 ? "k" : key.toString();
                assertEquals(((Long) probe.call("CLUSTER", "KEYSLOT", k)).intValue(), ClusterSlot.of(k), "key " + k);
            }
        }
    }
}
